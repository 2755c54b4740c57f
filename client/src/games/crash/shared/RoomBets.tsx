import { AnimatePresence, motion } from "motion/react";
import { formatCoins, formatNet } from "@casino/common/format";
import type { CrashRoomBet, CrashRoomSnapshot } from "@casino/common/crash-room";
import { Avatar } from "../../../ui/Avatar";
import { times } from "./CrashGraph";

/**
 * Everyone's bet in the current round and what became of it, as the room lists them: a settled bet by its
 * net figure (payout − stake), the payout only labelled as paid.
 */
export function RoomBets({ room, playerId }: { room: CrashRoomSnapshot; playerId: string | null }) {
  const bets = Object.values(room.bets).sort((a, b) => b.amount - a.amount || a.username.localeCompare(b.username));
  return (
    <section aria-label="Bets in this round" data-testid="crash-room-round-bets" className="rounded-xl bg-muted p-3 ring-1 ring-border">
      <h2 className="mb-2 flex items-baseline justify-between text-sm font-semibold text-foreground">
        <span>Bets in this round</span>
        <span className="text-xs font-normal text-muted-foreground" data-testid="crash-room-bet-count">
          {bets.length} {bets.length === 1 ? "player" : "players"}
        </span>
      </h2>
      {bets.length === 0 ? (
        <p className="py-3 text-center text-sm text-muted-foreground">No bets yet.</p>
      ) : (
        <ul className="flex flex-col gap-1" data-testid="crash-room-bets">
          <AnimatePresence initial={false}>
            {bets.map((bet) => (
              <motion.li
                key={bet.playerId}
                layout
                initial={{ opacity: 0, x: -12 }}
                animate={{ opacity: 1, x: 0 }}
                exit={{ opacity: 0 }}
                data-testid="crash-room-bet"
                data-player={bet.playerId}
                data-status={bet.status}
                className={`flex items-center gap-2 rounded-lg px-2 py-1.5 text-sm ${bet.playerId === playerId ? "bg-emerald-500/10 ring-1 ring-emerald-400/30" : "bg-card"}`}
              >
                <Avatar src={bet.avatarUrl || null} name={bet.username} seed={bet.face || null} className="h-6 w-6" />
                <span className="min-w-0 flex-1 truncate font-medium">
                  {bet.username}
                  {bet.playerId === playerId && <span className="ml-1 text-xs text-positive">(you)</span>}
                </span>
                <span className="tabular-nums text-muted-foreground">{bet.amount.toLocaleString("en-US")}</span>
                <BetOutcome bet={bet} />
              </motion.li>
            ))}
          </AnimatePresence>
        </ul>
      )}
    </section>
  );
}

function BetOutcome({ bet }: { bet: CrashRoomBet }) {
  const text =
    bet.status === "cashed_out"
      ? `@ ${times(bet.cashedOutAt)} ${formatNet(bet.payout - bet.amount)}, paid ${formatCoins(bet.payout)}`
      : bet.status === "lost"
        ? `busted ${formatNet(-bet.amount)}`
        : bet.status === "refunded"
          ? "refunded"
          : bet.autoCashOut > 0
            ? `auto ${times(bet.autoCashOut)}`
            : "playing";
  const tone = bet.status === "cashed_out" ? "text-positive" : bet.status === "lost" ? "text-destructive" : "text-muted-foreground";
  return (
    <motion.span
      key={bet.status}
      initial={{ scale: 1.25 }}
      animate={{ scale: 1 }}
      data-testid="crash-room-bet-outcome"
      className={`w-44 text-right tabular-nums ${tone}`}
    >
      {text}
    </motion.span>
  );
}
