import { useEffect, useRef, useState } from "react";
import type { Room } from "@colyseus/sdk";
import { CLIENT_MESSAGES, MIN_BET, minBetFor, type PlayerRecord } from "@casino/common";
import { winChance } from "@casino/common/games/dice";
import { guestSession } from "./net/session";
import { joinCasino } from "./net/room";

interface RoundAnswer {
  requestId: string;
  payout: number;
  stake: number;
  balance: number;
  view: { roll: number; win: boolean };
}

const formatCoins = (n: number) => n.toLocaleString("en-US");

/** A first playable page: a guest, the casino room, and dice. The full lobby comes with the client work. */
export function App() {
  const [player, setPlayer] = useState<PlayerRecord | null>(null);
  const [balance, setBalance] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // the minimum bet of the default target: smaller stakes lose more than 1 % to whole-coin rounding
  const [amount, setAmount] = useState(() => minBetFor("dice", { target: 50, direction: "under" }));
  const [target, setTarget] = useState(50);
  const [direction, setDirection] = useState<"under" | "over">("under");
  const [last, setLast] = useState<RoundAnswer | null>(null);
  const [pending, setPending] = useState(false);
  const room = useRef<Room | null>(null);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const session = await guestSession();
        if (cancelled) return;
        setPlayer(session.player);
        const joined = await joinCasino(session.session_token);
        room.current = joined;
        setBalance(session.player.balance);
        joined.onStateChange((state: { balance?: number }) => {
          if (typeof state.balance === "number") setBalance(state.balance);
        });
        joined.onMessage("result", (answer: RoundAnswer) => {
          setLast(answer);
          setPending(false);
        });
        joined.onMessage("error", (e: { message: string }) => {
          setError(e.message);
          setPending(false);
        });
        joined.onMessage("*", () => undefined);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    })();
    return () => {
      cancelled = true;
      void room.current?.leave();
    };
  }, []);

  const chance = winChance({ target, direction });
  const roll = () => {
    if (!room.current) return;
    setError(null);
    setPending(true);
    room.current.send(CLIENT_MESSAGES.bet, { requestId: `dice-${crypto.randomUUID()}`, game: "dice", amount, params: { target, direction } });
  };

  if (error && !player) {
    return (
      <main className="center">
        <h1>Connection Error</h1>
        <p>{error}</p>
      </main>
    );
  }
  if (!player || balance === null) return <main className="center">Loading casino...</main>;

  return (
    <main>
      <header>
        <strong>{player.username || "Player"}</strong>
        <span data-testid="balance" aria-label="balance">
          {formatCoins(balance)} coins
        </span>
      </header>
      <section className="card">
        <h2>Dice</h2>
        <label>
          Bet
          <input type="number" min={MIN_BET} value={amount} onChange={(e) => setAmount(Number(e.target.value))} />
        </label>
        <label>
          Target
          <input type="number" step="0.01" value={target} onChange={(e) => setTarget(Number(e.target.value))} />
        </label>
        <label>
          <select value={direction} onChange={(e) => setDirection(e.target.value as "under" | "over")}>
            <option value="under">Roll under</option>
            <option value="over">Roll over</option>
          </select>
        </label>
        <p>
          Win chance {(chance / 100).toFixed(2)}% · pays {(9900 / chance).toFixed(4)}×
        </p>
        <button onClick={roll} disabled={pending}>
          Roll
        </button>
        {last && (
          <p data-testid="outcome">
            Rolled {last.view.roll.toFixed(2)}: {last.view.win ? `You won! +${formatCoins(last.payout - last.stake)} coins` : `Better luck next time -${formatCoins(last.stake)}`}
          </p>
        )}
        {error && <p className="error">{error}</p>}
      </section>
      <footer>Play responsibly. Virtual currency only.</footer>
    </main>
  );
}
