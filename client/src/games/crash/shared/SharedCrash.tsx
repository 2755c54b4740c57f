import { useState } from "react";
import { motion } from "motion/react";
import { netCoinsText, paidText, ratioPayoutText } from "@casino/common/format";
import type { SharedCrashRoom } from "../../contract";
import { InvitePrompt } from "../../shared/InvitePrompt";
import { ReactionOverlay, ReactionPicker } from "../../../features/together/Reactions";
import { CrashGraph, times } from "./CrashGraph";
import { RoomBets } from "./RoomBets";
import { RoomHistory } from "./RoomHistory";
import { useCrashRoom, type CrashRoomControls } from "./use-crash-room";

/** The instance's crash round, as reactions name it. */
const CRASH_TARGET = { kind: "crash-round" } as const;

/**
 * Crash played together: one round at a time for everyone in the activity instance (or the public room).
 * Bets and automatic cash-outs in the betting phase, a cash-out by hand during the run; the server
 * ticks the multiplier and says when the round busts.
 */
export function SharedCrash({ shared, balance }: { shared: SharedCrashRoom; balance: number }) {
  const controls = useCrashRoom(shared);
  const { room, status } = controls;
  return (
    <div className="flex flex-col gap-4" data-testid="crash-room" data-phase={room?.phase ?? "connecting"} data-round={room?.roundId ?? ""}>
      <div className="flex flex-col-reverse gap-4 lg:flex-row">
        <aside className="w-full shrink-0 lg:w-80">
          <BetBox controls={controls} balance={balance} />
          <p className="mt-3 text-xs text-muted-foreground" data-testid="crash-room-scope">
            {shared.instanceId
              ? "Everyone in this activity plays the same round."
              : "Public room: everyone playing outside Discord plays the same round."}
          </p>
          {shared.instanceId && <ReactionPicker target={CRASH_TARGET} label="the crash round" className="mt-2 justify-start" />}
          {shared.invite && room && room.phase !== "running" && (
            <div className="mt-3">
              <InvitePrompt invite={shared.invite} text="Bring friends into the next round." testId="crash-invite" />
            </div>
          )}
        </aside>
        <div className="relative min-h-[320px] flex-1 overflow-hidden rounded-xl bg-felt p-3 ring-1 ring-border sm:p-5">
          {room ? (
            <>
              <p className="absolute left-4 top-3 text-xs text-muted-foreground">{room.gameNumber > 0 && `Game #${room.gameNumber}`}</p>
              <CrashGraph room={room} />
            </>
          ) : (
            <p className="grid h-72 place-items-center text-muted-foreground" role="status">
              {status === "lost" ? "The shared room cannot be reached. Go back to the lobby and try again." : "Joining the shared room…"}
            </p>
          )}
          {shared.instanceId && <ReactionOverlay target={CRASH_TARGET} />}
          {room && status === "reconnecting" && (
            <p role="status" className="absolute right-3 top-3 rounded-full bg-amber-500/20 px-2 py-0.5 text-xs text-warning">
              Reconnecting…
            </p>
          )}
        </div>
      </div>
      {room && (
        <div className="grid gap-4 lg:grid-cols-2">
          <RoomBets room={room} playerId={shared.playerId} />
          <RoomHistory room={room} playerId={shared.playerId} />
        </div>
      )}
    </div>
  );
}

/** Amount and automatic cash-out in the betting phase; the cash-out button during the run. */
function BetBox({ controls, balance }: { controls: CrashRoomControls; balance: number }) {
  const { room, mine, pending, error } = controls;
  const [amountText, setAmountText] = useState("10");
  const [autoText, setAutoText] = useState("");
  const amount = Number(amountText);
  const auto = autoText.trim() === "" ? null : Number(autoText);
  const problem =
    !Number.isInteger(amount) || amount < 1
      ? "Enter a whole number of coins"
      : amount > balance
        ? "Not enough coins"
        : auto !== null && (!Number.isFinite(auto) || auto < 1.01)
          ? "Auto cash-out: 1.01× or more, or leave it empty"
          : null;
  const phase = room?.phase ?? "waiting";
  const running = phase === "running";

  return (
    <div className="flex flex-col gap-3 rounded-xl bg-muted p-4 ring-1 ring-border" data-testid="crash-room-panel">
      <label className="flex flex-col gap-1 text-xs text-muted-foreground">
        Bet amount
        <input
          aria-label="Bet amount"
          inputMode="numeric"
          value={amountText}
          disabled={mine !== null}
          onChange={(e) => setAmountText(e.target.value)}
          className="rounded-lg border border-border bg-background px-3 py-2 tabular-nums text-foreground outline-none focus:border-primary"
        />
      </label>
      <label className="flex flex-col gap-1 text-xs text-muted-foreground">
        Auto cash-out (optional)
        <input
          aria-label="Auto cash-out"
          inputMode="decimal"
          placeholder="e.g. 2.00"
          value={autoText}
          disabled={mine !== null}
          onChange={(e) => setAutoText(e.target.value)}
          className="rounded-lg border border-border bg-background px-3 py-2 tabular-nums text-foreground outline-none focus:border-primary"
        />
      </label>
      {mine && running && mine.status === "active" ? (
        <motion.button
          type="button"
          whileTap={{ scale: 0.96 }}
          disabled={pending}
          onClick={() => void controls.cashOut()}
          className="rounded-lg bg-amber-400 px-4 py-3 text-base font-black text-slate-950 shadow hover:brightness-110 disabled:opacity-60"
        >
          {/* what a cash-out at the current multiplier pays: exact, and the whole coins (rule 2) */}
          Cash out {ratioPayoutText(mine.amount, room?.multiplier ?? 100, 100)}
        </motion.button>
      ) : mine ? (
        <p data-testid="crash-room-my-bet" className="rounded-lg bg-card px-3 py-3 text-center text-sm font-semibold text-foreground">
          {mine.status === "cashed_out"
            ? `Cashed out @ ${times(mine.cashedOutAt)}: ${netCoinsText(mine.payout - mine.amount)}, ${paidText(mine.payout, (mine.amount * mine.cashedOutAt) / 100)}`
            : mine.status === "lost"
              ? `Busted: ${netCoinsText(-mine.amount)}`
              : mine.status === "refunded"
                ? "Refunded"
                : `Bet ${mine.amount.toLocaleString("en-US")} placed${mine.autoCashOut > 0 ? ` · auto ${times(mine.autoCashOut)}` : ""}`}
        </p>
      ) : (
        <motion.button
          type="button"
          whileTap={{ scale: 0.96 }}
          disabled={phase !== "betting" || pending || problem !== null}
          onClick={() => void controls.bet(amount, auto)}
          className="rounded-lg bg-primary inset-ring-2 inset-ring-primary-edge px-4 py-3 text-base font-black text-primary-foreground shadow hover:brightness-110 disabled:opacity-50"
        >
          {phase === "betting" ? "Place bet" : "Bet in the next round"}
        </motion.button>
      )}
      {problem && mine === null && <p className="text-xs text-warning">{problem}</p>}
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
