import type { HoldemSeatPlayer, HoldemTableSnapshot } from "@casino/common/holdem-table";
import type { Card } from "@casino/common/games/cards";
import { cn } from "../../ui/cn";
import { PlayingCard } from "../shared/Cards";
import { formatCoins } from "../shared/format";
import { FreeSeat, SeatAvatar, seatedProps } from "../shared/TableSeat";

type Hand = NonNullable<HoldemTableSnapshot["hand"]>;
export type HandSeat = Hand["seats"][number];

/** The decision's clock as a seat shows it: the share left of the decision time (then of the time bank) and whole seconds. */
export interface SeatTimer {
  left: number;
  seconds: number;
  bank: boolean;
}

export function seatTimer(hand: Hand, decisionMs: number, now: number): SeatTimer | null {
  if (hand.toAct === null || hand.deadline === null) return null;
  const bank = hand.bankStartsAt !== null && now >= hand.bankStartsAt;
  // The decision time runs first, then the time bank: the ring and the seconds count down the one running.
  const end = bank || hand.bankStartsAt === null ? hand.deadline : hand.bankStartsAt;
  const span = bank ? Math.max(1, hand.deadline - hand.bankStartsAt!) : decisionMs;
  const ms = Math.max(0, end - now);
  return { left: Math.min(1, ms / span), seconds: Math.ceil(ms / 1000), bank };
}

export interface SeatProps {
  seat: number;
  player: HoldemSeatPlayer | null;
  /** The seat's part of the hand on the table; null when not dealt in (or no hand). */
  inHand: HandSeat | null;
  hand: Hand | null;
  mine: boolean;
  /** The cards to show: the player's own (private view), a hand turned up at the showdown, else backs. */
  cards: (Card | null)[];
  timer: SeatTimer | null;
  /** What the seat won and with which hand, once the hand is over. */
  won: { amount: number; handName: string | null } | null;
  /** Reached the showdown and threw the hand away unseen. */
  mucked: boolean;
  compact: boolean;
  /** Shown on a free seat while watching; null: no Sit button. */
  onSit: (() => void) | null;
  sitDisabled: boolean;
}

const FREE_SEAT_CLASS =
  "flex min-h-14 items-center justify-center gap-2 rounded-xl border border-dashed border-border/80 bg-card/60 p-1.5 text-xs text-muted-foreground";

/** A seat at the felt: the face, name and stack, the blind or button, the street's bet and the cards. */
export function Seat(props: SeatProps) {
  const { seat, player, inHand, hand, mine, cards, timer, won, mucked, compact } = props;
  if (!player) return <FreeSeat {...props} testPrefix="holdem" label={`Seat ${seat}`} className={FREE_SEAT_CLASS} />;
  const active = timer !== null;
  const playing = inHand !== null && hand !== null && hand.phase !== "complete";
  const stack = playing ? inHand.stack : player.stack;
  const avatarPx = compact ? 36 : 44;
  const badges: string[] = [];
  if (hand && hand.button === seat) badges.push("D");
  if (playing && hand.smallBlindSeat === seat) badges.push("SB");
  if (playing && hand.bigBlindSeat === seat) badges.push("BB");
  const status: string[] = [];
  if (inHand?.folded && playing) status.push("folded");
  if (inHand?.allIn) status.push("all-in");
  if (mucked) status.push("mucked");
  if (player.status === "sittingOut") status.push("sitting out");
  else if (player.status === "waiting" && !inHand) status.push("next hand");
  if (!player.connected) status.push("away");
  if (player.leaving) status.push("leaving");
  return (
    <div
      {...seatedProps("holdem", seat, player, mine, active)}
      data-stack={stack}
      data-folded={inHand?.folded ?? false}
      data-won={won?.amount ?? ""}
      data-mucked={mucked}
      className={cn(
        "relative flex min-w-0 flex-col items-center gap-1 rounded-xl bg-card p-1.5 text-center shadow-sm transition-colors",
        active ? "ring-2 ring-amber-400" : won ? "ring-2 ring-emerald-500" : mine ? "ring-2 ring-primary/70" : "ring-1 ring-border",
        inHand?.folded && playing && "opacity-60",
      )}
    >
      <div className="flex w-full min-w-0 items-center gap-1.5">
        <SeatAvatar player={player} size={avatarPx} timerLeft={timer ? timer.left : null} />
        <span className="min-w-0 flex-1 text-left">
          <span className="flex min-w-0 text-xs font-semibold sm:text-sm">
            <span className="truncate" title={player.username} data-testid={`holdem-seat-${seat}-name`}>
              {player.username}
            </span>
          </span>
          <span className="block text-xs text-muted-foreground">
            <strong className="tabular-nums text-primary-ink" data-testid={`holdem-seat-${seat}-stack`}>
              {formatCoins(stack)}
            </strong>
            {mine && " · you"}
          </span>
        </span>
        {badges.length > 0 && (
          <span className="flex shrink-0 flex-col gap-0.5">
            {badges.map((b) => (
              <span
                key={b}
                className={cn(
                  "grid h-5 min-w-5 place-items-center rounded-full px-1 text-[10px] font-bold",
                  b === "D" ? "bg-white text-slate-900 ring-1 ring-slate-400" : "bg-muted text-foreground ring-1 ring-border",
                )}
                title={b === "D" ? "Dealer button" : b === "SB" ? "Small blind" : "Big blind"}
              >
                {b}
              </span>
            ))}
          </span>
        )}
      </div>
      {cards.length > 0 && (
        <div className="flex justify-center -space-x-5" data-testid={`holdem-seat-${seat}-cards`}>
          {cards.map((c, i) => (
            <PlayingCard key={`${hand?.handNumber ?? 0}-${i}-${c ?? "x"}`} card={c} size="sm" dim={inHand?.folded && playing} />
          ))}
        </div>
      )}
      <span className="min-h-4 text-[11px] leading-tight text-muted-foreground">
        {timer ? (
          <strong className="text-primary-ink" data-testid={`holdem-seat-${seat}-timer`}>
            {timer.bank ? "Time bank" : "To act"} · {timer.seconds}s
          </strong>
        ) : (
          status.join(", ")
        )}
        {playing && inHand.committed > 0 && (
          <span className="ml-1 rounded-full bg-amber-400/25 px-1.5 font-semibold text-foreground" data-testid={`holdem-seat-${seat}-bet`}>
            Bet {formatCoins(inHand.committed)}
          </span>
        )}
      </span>
      {won && (
        <span className="text-xs font-bold text-positive" data-testid={`holdem-seat-${seat}-result`}>
          Wins {formatCoins(won.amount)}
          {won.handName && <> · {won.handName}</>}
        </span>
      )}
    </div>
  );
}
