import type { HandResult } from "@casino/common/games/blackjack/engine";
import type { TableSeatPlayer, TableSnapshot } from "@casino/common/table";
import type { TableView } from "@casino/common/games/blackjack-table";
import { PlayingCard } from "../../shared/Cards";
import { formatNet } from "@casino/common/format";
import { formatCoins } from "../../shared/format";
import { RESULT_TEXT, handTotal } from "../solo";
import { secondsLeft } from "../../shared/server-clock";
import { FreeSeat, SeatAvatar, seatedProps } from "../../shared/TableSeat";
import { ReactionOverlay, ReactionPicker } from "../../../features/together/Reactions";

export type SeatView = TableView["seats"][number];

/** What a seat shows: its player (null when free) and its part of the round on the table (null when none). */
export interface SeatProps {
  seat: number;
  player: TableSeatPlayer | null;
  round: SeatView | null;
  table: TableSnapshot;
  /** this player's own seat */
  mine: boolean;
  /** the server's clock (server-clock.ts) */
  now: number;
  /** "lg": the player's own seat on a phone; "sm": a seat around the dealer; "row": a compact phone row */
  size: "lg" | "sm" | "row";
  /** the dealing key: cards deal in again for a new round */
  dealKey: string;
  /** shown on a free seat when the player is watching; null: no Sit button */
  onSit: (() => void) | null;
  sitDisabled?: boolean;
  /** the instance's table: a seated player's seat takes the others' reactions */
  reactions?: boolean;
}

const WON: ReadonlySet<HandResult> = new Set(["win", "blackjack"]);
const resultTone = (r: HandResult) => (WON.has(r) ? "text-positive" : r === "push" ? "text-foreground" : "text-destructive");

/** The seat's whole round by its net figure (payout − everything staked): "Won +15", "Lost -10", "Push 0". */
function netText(round: SeatView): { text: string; tone: string } | null {
  if (round.payout === null) return null;
  const net = round.payout - round.staked;
  if (net > 0) return { text: `Won ${formatNet(net)}`, tone: "text-positive" };
  if (net < 0) return { text: `Lost ${formatNet(net)}`, tone: "text-destructive" };
  return { text: `Push ${formatNet(net)}`, tone: "text-foreground" };
}

/**
 * Overlapping cards of one hand, dealt in one by one as the snapshots bring them. Each card shows its
 * whole corner beside the next (a small card's "10" needs 24 px: its left inset and two bold digits).
 */
function CardFan({ cards, dealKey, size }: { cards: (number | null)[]; dealKey: string; size: "sm" | "md" }) {
  return (
    <div className={`flex justify-center ${size === "sm" ? "-space-x-5 min-h-16" : "-space-x-8 min-h-24 sm:min-h-28"}`}>
      {cards.map((c, i) => (
        <PlayingCard key={`${dealKey}-${i}-${c ?? "x"}`} card={c} size={size} delay={0.05} />
      ))}
    </div>
  );
}

const freeSeatClass = (size: SeatProps["size"]) =>
  `flex items-center justify-center gap-2 rounded-xl border border-dashed border-border bg-card p-2 text-xs text-muted-foreground ${
    size === "row" ? "min-h-10 justify-between" : "min-h-24 flex-col"
  }`;

export function Seat(props: SeatProps) {
  const { seat, player, round, table, mine, now, size, dealKey } = props;
  const active = table.toAct === seat && player !== null;
  const left = active && table.deadline ? Math.max(0, Math.min(1, (table.deadline - now) / table.turnMs)) : 0;
  const seconds = active && table.deadline ? secondsLeft(table, now) : null;
  const avatarPx = size === "lg" ? 48 : size === "row" ? 36 : 40;
  const net = round ? netText(round) : null;

  if (!player) return <FreeSeat {...props} testPrefix="table" label={`Seat ${seat} · free`} className={freeSeatClass(size)} />;

  const status: string[] = [];
  if (!player.connected) status.push("away");
  if (player.leaving) status.push("leaving");
  if (table.phase === "betting" && player.ready) status.push("ready");
  if (!player.inRound && table.phase !== "betting" && table.phase !== "waiting") status.push("next round");

  const head = (
    <div className={`flex min-w-0 max-w-full items-center gap-2 ${size === "sm" ? "flex-col text-center" : ""}`}>
      <SeatAvatar player={player} size={avatarPx} timerLeft={active ? left : null} />
      <span className="min-w-0 max-w-full">
        {/* A long name ends in an ellipsis inside the seat (whole in its title and the seat's label); "you" always shows:
            after the name, or under it on a narrow seat round the dealer, where the name keeps the whole width. */}
        <span className={`flex min-w-0 font-semibold ${size === "sm" ? "max-w-24 justify-center text-xs" : "text-sm"}`}>
          <span className="truncate" title={player.username} data-testid={`table-seat-${seat}-name`}>
            {player.username}
          </span>
          {mine && size !== "sm" && <span className="shrink-0 whitespace-pre"> (you)</span>}
        </span>
        <span className="block text-[11px] leading-tight text-muted-foreground">
          {mine && size === "sm" && "You · "}
          Seat {seat}
          {player.bet !== null && <> · {formatCoins(round?.staked ?? player.bet)}</>}
          {status.length > 0 && <> · {status.join(", ")}</>}
        </span>
        {active && (
          <span className="block text-[11px] font-semibold text-primary-ink" data-testid={`table-seat-${seat}-timer`}>
            {table.phase === "insurance" ? "Insurance?" : "To play"} · {seconds}s
          </span>
        )}
      </span>
    </div>
  );

  const hands = round ? (
    <div className={`flex gap-2 ${size === "row" ? "flex-wrap justify-end" : "flex-wrap justify-center"}`}>
      {round.hands.map((h, i) => {
        const playing = active && table.phase === "turns" && round.active === i;
        return (
          <div
            key={i}
            data-testid={`table-seat-${seat}-hand-${i}`}
            data-cards={h.cards.length}
            data-total={h.total}
            data-result={h.result ?? ""}
            className={`flex flex-col items-center gap-0.5 rounded-lg p-1 ${playing ? "bg-amber-300/15 ring-2 ring-amber-400" : ""}`}
          >
            <CardFan cards={h.cards} dealKey={`${dealKey}-${seat}-${i}`} size={size === "lg" ? "md" : "sm"} />
            <span className="text-[11px] font-semibold tabular-nums">
              {handTotal(h)}
              {h.doubled && " · doubled"}
              {h.result && <strong className={`ml-1 ${resultTone(h.result)}`}>{RESULT_TEXT[h.result]}</strong>}
            </span>
          </div>
        );
      })}
    </div>
  ) : null;

  return (
    <div
      {...seatedProps("table", seat, player, mine, active)}
      className={`relative rounded-xl p-2 transition-colors ${active ? "bg-card ring-2 ring-amber-400" : mine ? "bg-card ring-2 ring-primary/70" : "bg-card ring-1 ring-border"} ${
        // on a phone's row the open reactions wrap to a line of their own rather than squeeze the name
        size === "row"
          ? `flex items-center justify-between gap-2${props.reactions ? " flex-wrap" : ""}`
          : "flex flex-col items-center gap-2"
      }`}
    >
      {head}
      {hands}
      {round?.insurance && round.insurance.stake > 0 && (
        <span className="text-[11px] text-primary-ink">Insured {formatCoins(round.insurance.stake)}</span>
      )}
      {net && (
        <span className={`text-xs font-bold ${net.tone}`} data-testid={`table-seat-${seat}-net`}>
          {net.text}
        </span>
      )}
      {props.reactions && (
        <>
          {!mine && <ReactionPicker target={{ kind: "seat", seat }} label={`${player.username}, seat ${seat}`} />}
          <ReactionOverlay target={{ kind: "seat", seat }} />
        </>
      )}
    </div>
  );
}
