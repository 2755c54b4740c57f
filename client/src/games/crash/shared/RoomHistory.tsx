import { useState } from "react";
import { AnimatePresence, motion } from "motion/react";
import { crashCashOutPayout, verifyCrashGame } from "@casino/common/games/crash-chain";
import { formatExactCoins, ratioPayoutText } from "@casino/common/format";
import { describeRounding, isRoundingRule, LEGACY_ROUNDING } from "@casino/common/fairness/rounding";
import type { CrashRoomGame, CrashRoomSnapshot } from "@casino/common/crash-room";
import { times } from "./CrashGraph";

type Check = { ok: true; gameNumber: number; crashPoint: number } | { ok: false; reason: string };

/** The player's own cash-out in a game, remembered from the room's live bets. */
interface OwnCashOut {
  playerId: string;
  amount: number;
  cashedOutAt: number;
  payout: number;
}

/**
 * Recent crash points, newest first. Each game's revealed hash can be checked here, in the browser, with
 * the common chain code: hashing it n times must give the commitment published before game 1, and the
 * crash point recomputed from it must be the one played (docs/crash-chain.md).
 */
export function RoomHistory({ room, playerId }: { room: CrashRoomSnapshot; playerId?: string | null }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const open = room.history.find((g) => g.roundId === openId) ?? null;
  // The player's cash-outs of this visit, by round: their rounding is re-derived once the hash is out.
  const [own, setOwn] = useState<Record<string, OwnCashOut>>({});
  const mine = playerId ? room.bets[playerId] : undefined;
  if (playerId && mine?.status === "cashed_out" && room.roundId && !own[room.roundId])
    setOwn({ ...own, [room.roundId]: { playerId, amount: mine.amount, cashedOutAt: mine.cashedOutAt, payout: mine.payout } });
  return (
    <section aria-label="Recent games" className="rounded-xl bg-muted p-3 ring-1 ring-border">
      <h2 className="mb-2 text-sm font-semibold text-foreground">Recent crash points</h2>
      {room.history.length === 0 ? (
        <p className="py-3 text-center text-sm text-muted-foreground">No finished game yet.</p>
      ) : (
        <ol className="flex flex-wrap gap-1.5" data-testid="crash-room-history">
          <AnimatePresence initial={false}>
            {room.history.map((game) => (
              <motion.li key={game.roundId} layout initial={{ opacity: 0, scale: 0.6 }} animate={{ opacity: 1, scale: 1 }}>
                <button
                  type="button"
                  onClick={() => setOpenId(openId === game.roundId ? null : game.roundId)}
                  aria-pressed={openId === game.roundId}
                  aria-label={`Game ${game.gameNumber}: ${game.phase === "void" ? "void" : times(game.crashPoint)}`}
                  data-testid="crash-room-game"
                  data-round={game.roundId}
                  className={`inline-flex min-h-8 items-center rounded-full px-2.5 py-1 text-xs font-bold tabular-nums ring-1 ${tone(game)} ${openId === game.roundId ? "ring-white/70" : "ring-transparent"}`}
                >
                  {game.phase === "void" ? "void" : times(game.crashPoint)}
                </button>
              </motion.li>
            ))}
          </AnimatePresence>
        </ol>
      )}
      {open && <GameCheck key={open.roundId} game={open} salt={room.salt} chainLength={room.chainLength} cashOut={own[open.roundId]} />}
      <p className="mt-3 break-all text-xs text-muted-foreground">
        Chain commitment (published before game 1):{" "}
        <span className="font-mono text-muted-foreground" data-testid="crash-room-commitment">
          {room.terminatingHash}
        </span>
      </p>
    </section>
  );
}

const tone = (game: CrashRoomGame) =>
  game.phase === "void"
    ? "bg-muted text-muted-foreground"
    : game.crashPoint >= 200
      ? "bg-emerald-500/20 text-positive"
      : "bg-rose-500/15 text-destructive";

function GameCheck({ game, salt, chainLength, cashOut }: { game: CrashRoomGame; salt: string; chainLength: number; cashOut?: OwnCashOut }) {
  const [check, setCheck] = useState<Check | null>(null);
  const rule = isRoundingRule(game.rounding) ? game.rounding : LEGACY_ROUNDING;
  const verify = () => {
    const result = verifyCrashGame({ gameHash: game.gameHash, terminatingHash: game.terminatingHash, salt, maxGames: chainLength });
    if (result.gameNumber !== game.gameNumber) {
      setCheck({
        ok: false,
        reason:
          result.gameNumber === null
            ? "this hash does not lead to the commitment"
            : `this hash is game ${result.gameNumber}, not ${game.gameNumber}`,
      });
    } else if (result.crashPointHundredths !== game.crashPoint) {
      setCheck({ ok: false, reason: `the hash gives ${times(result.crashPointHundredths)}, not ${times(game.crashPoint)}` });
    } else {
      setCheck({ ok: true, gameNumber: result.gameNumber, crashPoint: result.crashPointHundredths });
    }
  };
  return (
    <motion.div
      initial={{ opacity: 0, height: 0 }}
      animate={{ opacity: 1, height: "auto" }}
      className="mt-3 overflow-hidden rounded-lg bg-card/90 p-3 text-xs"
      data-testid="crash-room-game-details"
    >
      <p className="font-semibold text-foreground">
        Game #{game.gameNumber} · {game.phase === "void" ? "void (refunded)" : `busted @ ${times(game.crashPoint)}`}
      </p>
      <p className="mt-1 break-all text-muted-foreground">
        Game hash: <span className="font-mono text-foreground">{game.gameHash}</span>
      </p>
      <p className="mt-1 break-all text-muted-foreground">
        Salt: <span className="font-mono text-foreground">{salt}</span>
      </p>
      <p className="mt-1 text-muted-foreground" data-testid="crash-room-rounding">
        Payout rounding: rule {rule} ({rule === 1 ? "rounded down" : "unbiased, from the game hash and the player's id"})
      </p>
      {game.phase !== "void" && (
        <button type="button" onClick={verify} className="mt-2 rounded-md bg-muted px-3 py-1 font-semibold text-foreground hover:bg-border">
          Verify this game
        </button>
      )}
      {check && (
        <motion.p
          initial={{ opacity: 0 }}
          animate={{ opacity: 1 }}
          role="status"
          data-testid="crash-room-verdict"
          className={`mt-2 font-semibold ${check.ok ? "text-positive" : "text-destructive"}`}
        >
          {check.ok
            ? `Verified: hashing it ${check.gameNumber === 1 ? "once" : `${check.gameNumber} times`} gives the commitment, and it busts at ${times(check.crashPoint)}.`
            : `Not verified: ${check.reason}.`}
        </motion.p>
      )}
      {check?.ok && cashOut && <CashOutCheck game={game} rule={rule} cashOut={cashOut} />}
    </motion.div>
  );
}

/** Re-derives the player's own cash-out of a verified game from its revealed hash (docs/crash-chain.md). */
function CashOutCheck({ game, rule, cashOut }: { game: CrashRoomGame; rule: 1 | 2; cashOut: OwnCashOut }) {
  const { payout, draw } = crashCashOutPayout(rule, { gameHash: game.gameHash, ...cashOut });
  const exact = `${cashOut.amount.toLocaleString("en-US")} × ${times(cashOut.cashedOutAt)}`;
  // the exact payout and the coins it pays (rule 2), or the exact value rounded down (rule 1)
  const figure =
    rule === 2 ? ratioPayoutText(cashOut.amount, cashOut.cashedOutAt, 100) : formatExactCoins((cashOut.amount * cashOut.cashedOutAt) / 100);
  const how = draw ? describeRounding(draw) : rule === 1 ? "rounded down" : "a whole payout, nothing drawn";
  return (
    <p
      role="status"
      data-testid="crash-room-cashout-check"
      className={`mt-2 ${payout === cashOut.payout ? "text-positive" : "text-destructive"}`}
    >
      Your cash-out: {exact} pays {payout.toLocaleString("en-US")} ({figure}; {how})
      {payout === cashOut.payout ? ": as paid." : `, but ${cashOut.payout.toLocaleString("en-US")} was paid.`}
    </p>
  );
}
