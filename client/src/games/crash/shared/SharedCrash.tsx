import { motion } from "motion/react";
import { netCoinsText, paidText, ratioPayoutParts } from "@casino/common/format";
import { MAX_CASH_OUT, MIN_CASH_OUT, type CrashParams } from "@casino/common/games/crash/engine";
import type { GameTableProps, SharedCrashRoom } from "../../contract";
import { BetPanel } from "../../shared/BetPanel";
import { GameFrame } from "../../shared/GameFrame";
import { InvitePrompt } from "../../shared/InvitePrompt";
import { MyBets } from "../../shared/MyBets";
import { TargetField, useTarget } from "../../shared/TargetField";
import { useStake, type StakeText } from "../../shared/use-stake";
import { ReactionOverlay, ReactionPicker } from "../../../features/together/Reactions";
import { CASH_OUT_CHANCES } from "../chances";
import { CrashGraph, times } from "./CrashGraph";
import { RoomBets } from "./RoomBets";
import { RoomHistory } from "./RoomHistory";
import { useCrashRoom, type CrashRoomControls } from "./use-crash-room";

/** The instance's crash round, as reactions name it. */
const CRASH_TARGET = { kind: "crash-round" } as const;

/**
 * Live crash: one round at a time for everyone in the activity instance (or the public room outside
 * Discord). A bet, with an optional automatic cash-out, in the betting phase; a cash-out by hand during
 * the run; the server ticks the multiplier and says when the round busts. The bet panel is every
 * table's (amount, ½, 2x, Max), in the frame every table shares; under the table, the round's bets and
 * the player's own ("My bets", as every table has it), then the recent crash points.
 */
export function SharedCrash({ shared, table, amount }: { shared: SharedCrashRoom; table: GameTableProps; amount?: StakeText }) {
  const controls = useCrashRoom(shared);
  const { room, status } = controls;
  return (
    <div className="flex flex-col gap-4" data-testid="crash-room" data-phase={room?.phase ?? "connecting"} data-round={room?.roundId ?? ""}>
      <GameFrame
        table={table}
        lists={
          room ? (
            <>
              <RoomBets room={room} playerId={shared.playerId} />
              <MyBets game={table.game.id} session={table.session} />
              <div className="lg:col-span-2">
                <RoomHistory room={room} playerId={shared.playerId} />
              </div>
            </>
          ) : (
            <MyBets game={table.game.id} session={table.session} />
          )
        }
        help={{
          rules: (
            <>
              <p>
                Everyone in the room plays the same round. Bet while the round is open for bets, with an automatic cash-out if you like
                (from {MIN_CASH_OUT}× to {MAX_CASH_OUT.toLocaleString("en-US")}×). Then the multiplier rises from 1.00× until it crashes:
                press Cash out before it does to win your bet times the multiplier at that moment; at the crash every bet still in is lost.
              </p>
              <p className="mt-2">
                Crash points come from a hash chain committed before the first game; each game&apos;s hash is revealed after it, and
                &ldquo;Verify this game&rdquo; checks it. The chance of reaching x is 99 % ÷ x.
              </p>
            </>
          ),
          payTable: CASH_OUT_CHANCES,
          rtpRows: (bet) => bet.includes("shared room"),
        }}
        panel={(showHelp) => (
          <div data-testid="crash-room-panel">
            <LiveBetPanel table={table} controls={controls} onShowHelp={showHelp} amount={amount} />
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
          </div>
        )}
      >
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
          <p
            role="status"
            data-testid="crash-room-reconnecting"
            className="absolute right-3 top-3 rounded-full bg-amber-500/20 px-2 py-0.5 text-xs text-warning"
          >
            Reconnecting…
          </p>
        )}
      </GameFrame>
    </div>
  );
}

/**
 * The bet panel of every table, wired to the room: the amount with ½ / 2x / Max and the optional
 * automatic cash-out in the betting phase; once the bet is in, the Cash out button while the round runs
 * and the bet's outcome after it.
 */
function LiveBetPanel({
  table,
  controls,
  onShowHelp,
  amount,
}: {
  table: GameTableProps;
  controls: CrashRoomControls;
  onShowHelp(): void;
  amount?: StakeText;
}) {
  const { room, mine, pending, error, status } = controls;
  const stake = useStake(table.game.id, table.balance, 1, amount);
  const autoField = useTarget("", `Enter an automatic cash-out from ${MIN_CASH_OUT}× to ${MAX_CASH_OUT.toLocaleString("en-US")}×`);
  // an empty field is no automatic cash-out: the bet is cashed out by hand
  const auto = autoField.text.trim() === "" ? null : autoField.value;
  const params: CrashParams | null = auto === null || !Number.isFinite(auto) ? null : { cashOutAt: auto };
  const phase = room?.phase ?? "waiting";
  const running = phase === "running";
  const canCashOut = mine !== null && running && mine.status === "active" && !pending;
  const blocked =
    mine !== null || phase === "betting"
      ? null
      : running
        ? "This round is running: bets open again after the crash."
        : "Bets open with the next round.";

  return (
    <BetPanel
      game={table.game}
      stake={stake}
      total={stake.amount}
      params={params}
      paramsProblem={auto === null ? null : autoField.problem}
      pending={pending}
      serverError={error}
      connected={status === "open"}
      // the table says it is joining during the first connect; only a lost connection is told here
      offlineNotice={status === "connecting" ? null : status === "lost" ? "The shared room cannot be reached: bets are paused." : undefined}
      balance={table.balance}
      label="Place bet"
      onBet={() => void controls.bet(stake.amount, auto)}
      blocked={blocked}
      locked={mine !== null}
      onShowHelp={onShowHelp}
      roundKey={{ label: "Cash out", ready: canCashOut, run: () => void controls.cashOut() }}
      roundActions={
        mine && running && mine.status === "active" ? (
          <motion.button
            type="button"
            data-testid="crash-cash-out"
            whileTap={{ scale: 0.96 }}
            disabled={pending}
            onClick={() => void controls.cashOut()}
            className="flex min-h-14 flex-col items-center justify-center rounded-lg bg-amber-400 px-3 py-2 text-slate-950 shadow hover:brightness-110 disabled:opacity-60"
          >
            <CashOutLabel amount={mine.amount} multiplier={room?.multiplier ?? 100} />
          </motion.button>
        ) : mine ? (
          <p
            data-testid="crash-room-my-bet"
            data-status={mine.status}
            className="rounded-lg bg-muted px-3 py-3 text-center text-sm font-semibold text-foreground"
          >
            {mine.status === "cashed_out"
              ? `Cashed out @ ${times(mine.cashedOutAt)}: ${netCoinsText(mine.payout - mine.amount)}, ${paidText(mine.payout, (mine.amount * mine.cashedOutAt) / 100)}`
              : mine.status === "lost"
                ? `Busted: ${netCoinsText(-mine.amount)}`
                : mine.status === "refunded"
                  ? "Refunded"
                  : `Bet ${mine.amount.toLocaleString("en-US")} placed${mine.autoCashOut > 0 ? ` · auto ${times(mine.autoCashOut)}` : ""}`}
          </p>
        ) : null
      }
    >
      <TargetField
        label="Auto cash-out (optional)"
        testId="crash-room-auto"
        target={autoField}
        disabled={pending || mine !== null}
        placeholder="none: cash out by hand"
      />
    </BetPanel>
  );
}

/**
 * What a cash-out at the current multiplier pays, exact and in the whole coins rule 2 pays of it, set on
 * two lines so a phone's narrow button does not wrap it mid-phrase: "Cash out 26.4" and, below, "pays 26
 * or 27, 26.4 on average" (none when the payout is whole).
 */
function CashOutLabel({ amount, multiplier }: { amount: number; multiplier: number }) {
  const { value, pays } = ratioPayoutParts(amount, multiplier, 100);
  return (
    <>
      <span className="whitespace-nowrap text-base font-black leading-6" data-testid="crash-cash-out-line">
        Cash out {value}
      </span>
      {pays && (
        // at the largest stakes this line may take two: it wraps, never clipped
        <span className="text-balance text-xs font-semibold leading-4 tabular-nums" data-testid="crash-cash-out-line">
          {pays}
        </span>
      )}
    </>
  );
}
