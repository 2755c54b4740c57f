import { useMemo, useState } from "react";
import { MotionConfig } from "motion/react";
import { HOLDEM_TABLE_SEATS, holdemBuyInRange, type HoldemRevealedHand, type HoldemTableSnapshot } from "@casino/common/holdem-table";
import type { Card } from "@casino/common/games/cards";
import type { HoldemAction, LegalActions } from "@casino/common/games/holdem/hand-machine";
import { ACTION_TONES } from "../shared/ActionButton";
import { PlayingCard, handName } from "../shared/Cards";
import { formatCoins } from "../shared/format";
import { InvitePrompt } from "../shared/InvitePrompt";
import { ReconnectingBadge, TableJoining, TableStatusLine } from "../shared/TableStatus";
import { useFastReveal } from "../../ui/useReducedMotion";
import { useMediaQuery } from "../../ui/useMediaQuery";
import { useNow } from "../../ui/useNow";
import { cn } from "../../ui/cn";
import { presets, sizedAction, sizingOf, typedSize, type Sizing } from "./bet-sizing";
import { Seat, seatTimer, type SeatProps } from "./Seat";
import { useHoldemRoom, type HoldemRoomControls } from "./use-holdem-room";
import type { SharedRoomHost } from "../../features/game-host/shared-room-host";

type Hand = NonNullable<HoldemTableSnapshot["hand"]>;

const SEATS = Array.from({ length: HOLDEM_TABLE_SEATS }, (_, i) => i + 1);
/** Where each seat sits round the oval felt on a wide screen (centre, in % of the felt), seat 1 to 8 clockwise from the bottom. */
const OVAL: readonly (readonly [number, number])[] = [
  [36, 85],
  [11, 67],
  [11, 33],
  [36, 14],
  [64, 14],
  [89, 33],
  [89, 67],
  [64, 85],
];
const STREETS: Record<Hand["phase"], string> = { preflop: "Preflop", flop: "Flop", turn: "Turn", river: "River", complete: "Hand over" };

const nameAt = (table: HoldemTableSnapshot, seat: number | null): string =>
  table.seats.find((p) => p.seat === seat)?.username ?? `Seat ${seat}`;

/** The line over the felt: what the table is doing and how long it has left. */
function phaseText(table: HoldemTableSnapshot, now: number, mySeat: number | null): string {
  const hand = table.hand;
  switch (table.phase) {
    case "waiting":
      if (table.nextHandAt !== null) return `The first hand is dealt in ${Math.max(0, Math.ceil((table.nextHandAt - now) / 1000))}s`;
      return table.seats.length < 2 ? "Waiting for players: a hand starts with two at the table" : "Waiting for the next hand";
    case "playing":
      if (!hand || hand.toAct === null) return "Dealing…";
      return hand.toAct === mySeat ? "Your turn" : `${nameAt(table, hand.toAct)} to act`;
    case "settling":
      return "Paying the pots…";
    case "pause":
      return table.nextHandAt === null
        ? "Hand over"
        : `Hand over · next hand in ${Math.max(0, Math.ceil((table.nextHandAt - now) / 1000))}s`;
  }
}

/** The winners of a finished hand in words: "Alice wins 12 with Two pair". */
function resultLines(table: HoldemTableSnapshot, hand: Hand): string[] {
  const result = hand.result;
  if (!result) return [];
  return result.won
    .filter((w) => w.amount > 0)
    .map((w) => {
      const shown = result.shown.find((s) => s.seat === w.seat);
      const how = result.showdown && shown ? ` with ${handName(shown.best.category)}` : result.showdown ? "" : ": everyone else folded";
      return `${nameAt(table, w.seat)} wins ${formatCoins(w.amount)}${how}`;
    });
}

/**
 * The Hold'em table: eight seats round the felt, the board and the pots in the middle, the player's own
 * hole cards from their private view, and their choices when it is their turn. Without a seat the player
 * watches, and buys in at a free seat. Every card, timer and result comes from the room.
 */
export function HoldemTable({ host, balance }: { host: SharedRoomHost; balance: number }) {
  const controls = useHoldemRoom(host);
  const { table, status, me, own } = controls;
  const fast = useFastReveal();
  const wide = useMediaQuery("(min-width: 768px)");
  // Timers by the server's clock, never earlier than the snapshot's own stamp (see the blackjack table).
  const now = Math.max(useNow(250) + controls.clockOffset, table?.serverTime ?? 0);
  const [buyIn, setBuyIn] = useState<string | null>(null);
  const hand = table?.hand ?? null;
  const mySeat = me?.seat ?? null;
  const range = table ? holdemBuyInRange(table.config) : null;
  const buyInValue = range
    ? buyIn === null
      ? Math.min(range.max, Math.max(range.min, Math.min(balance, 50 * table!.config.bigBlind)))
      : Number(buyIn)
    : 0;
  const buyInError = !range
    ? null
    : !Number.isInteger(buyInValue) || buyInValue < range.min || buyInValue > range.max
      ? `The buy-in is from ${formatCoins(range.min)} to ${formatCoins(range.max)} coins`
      : buyInValue > balance
        ? "Not enough coins for this buy-in"
        : null;
  const canSit = status === "open" && !controls.pending && !me && buyInError === null;
  // Discord's invite (inside an activity's guild channel) while a seat is free and no hand is being played
  // with this player in it: a player in a hand is never distracted from it.
  const inPlay = hand !== null && table?.phase === "playing" && hand.seats.some((s) => s.seat === mySeat);
  const invite = host.invite && table && table.seats.length < HOLDEM_TABLE_SEATS && !inPlay ? host.invite : null;

  const seatProps = (seat: number): SeatProps => {
    const player = table!.seats.find((p) => p.seat === seat) ?? null;
    const inHand = (player && hand?.seats.find((s) => s.seat === seat && s.playerId === player.playerId)) || null;
    const mine = seat === mySeat;
    let cards: (Card | null)[] = [];
    if (inHand) {
      // The player's own cards: the private view's during the hand, the revealed record's once it is over.
      const revealed = table!.previousHand?.start.handNumber === hand!.handNumber ? table!.previousHand.outcome.hole : [];
      const ownHole = !mine
        ? null
        : own?.hole && own.handNumber === hand!.handNumber
          ? own.hole
          : (revealed.find((h) => h.seat === seat)?.cards ?? null);
      if (ownHole) cards = ownHole;
      else if (inHand.hole) cards = inHand.hole;
      else if (hand!.phase !== "complete" && !inHand.folded) cards = [null, null];
    }
    const active = hand !== null && table!.phase === "playing" && hand.toAct === seat;
    const result = hand?.result ?? null;
    const wonAmount = result?.won.find((w) => w.seat === seat)?.amount ?? 0;
    const shown = result?.shown.find((s) => s.seat === seat);
    return {
      seat,
      player,
      inHand,
      hand,
      mine,
      cards,
      timer: active ? seatTimer(hand, table!.config.decisionMs, now) : null,
      mucked: result?.mucked.includes(seat) ?? false,
      won: wonAmount > 0 ? { amount: wonAmount, handName: result?.showdown && shown ? handName(shown.best.category) : null } : null,
      compact: !wide,
      onSit: !me && !player ? () => void controls.sit(seat, buyInValue) : null,
      sitDisabled: !canSit,
    };
  };

  return (
    <MotionConfig reducedMotion={fast ? "always" : "user"}>
      <section
        data-testid="holdem-table"
        data-phase={table?.phase ?? "connecting"}
        data-status={status}
        data-hand={hand?.handNumber ?? ""}
        data-street={hand?.phase ?? ""}
        data-to-act={(table?.phase === "playing" && hand?.toAct) || ""}
        data-my-seat={mySeat ?? ""}
        data-next-hand-at={table?.nextHandAt ?? ""}
        data-my-turn={Boolean(own?.legal && hand?.toAct === mySeat && table?.phase === "playing")}
        aria-label="Hold'em table"
        className="mx-auto flex w-full max-w-6xl flex-col gap-3 text-foreground md:flex-row md:items-start md:gap-4"
      >
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          {table && (
            <TableStatusLine phase={phaseText(table, now, mySeat)} phaseTestId="holdem-status" watchersTestId="holdem-watchers">
              Blinds {table.config.smallBlind}/{table.config.bigBlind} · {table.seats.length}/{HOLDEM_TABLE_SEATS} seated · {table.watchers}{" "}
              watching
            </TableStatusLine>
          )}
          <ReconnectingBadge status={status} />
          {invite && <InvitePrompt invite={invite} text="Bring friends to a free seat at the table." testId="holdem-invite" />}
          {table ? (
            wide ? (
              <div className="relative h-[600px] w-full" data-testid="holdem-felt">
                <div className="absolute inset-x-[5%] inset-y-[8%] rounded-[999px] bg-felt ring-8 ring-border" aria-hidden />
                <div className="absolute inset-0 flex items-center justify-center">
                  <Middle table={table} hand={hand} size="md" />
                </div>
                <ol aria-label="Seats">
                  {SEATS.map((seat) => (
                    <li
                      key={seat}
                      className="absolute w-40 -translate-x-1/2 -translate-y-1/2"
                      style={{ left: `${OVAL[seat - 1]![0]}%`, top: `${OVAL[seat - 1]![1]}%` }}
                    >
                      <Seat {...seatProps(seat)} />
                    </li>
                  ))}
                </ol>
              </div>
            ) : (
              <div className="flex flex-col gap-2 rounded-3xl bg-felt p-2 ring-4 ring-border" data-testid="holdem-felt">
                <Middle table={table} hand={hand} size="sm" />
                <ol aria-label="Seats" className="grid grid-cols-2 gap-1.5">
                  {SEATS.map((seat) => (
                    <li key={seat} className="min-w-0">
                      <Seat {...seatProps(seat)} />
                    </li>
                  ))}
                </ol>
              </div>
            )
          ) : (
            <TableJoining status={status} className="grid h-72 place-items-center rounded-3xl bg-felt text-muted-foreground" />
          )}
        </div>
        <aside className="contents md:flex md:w-80 md:shrink-0 md:flex-col md:gap-3">
          {table && (
            <div className="sticky bottom-0 z-10 -mx-2 border-t border-border bg-background/95 px-2 py-2 md:static md:mx-0 md:border-0 md:bg-transparent md:p-0">
              {me ? (
                <SeatPanel controls={controls} table={table} hand={hand} />
              ) : (
                <BuyInPanel
                  controls={controls}
                  range={range!}
                  value={buyIn ?? String(buyInValue)}
                  onChange={setBuyIn}
                  error={buyInError}
                  free={SEATS.filter((s) => !table.seats.some((p) => p.seat === s))}
                  canSit={canSit}
                  onSit={(seat) => void controls.sit(seat, buyInValue)}
                />
              )}
            </div>
          )}
          {table && <HandFairness table={table} />}
        </aside>
      </section>
    </MotionConfig>
  );
}

/** The middle of the felt: the street, the board, the pot and, once the hand is over, who won what. */
function Middle({ table, hand, size }: { table: HoldemTableSnapshot; hand: Hand | null; size: "sm" | "md" }) {
  const board = hand?.board ?? [];
  const result = hand?.result ?? null;
  const lines = hand ? resultLines(table, hand) : [];
  return (
    <div className="flex flex-col items-center gap-1.5 py-1 text-center">
      <span className="text-[11px] font-semibold uppercase tracking-wide text-muted-foreground">
        {hand ? `Hand ${hand.handNumber} · ${STREETS[hand.phase]}` : "No hand yet"}
      </span>
      <div className="flex gap-1 sm:gap-1.5" data-testid="holdem-board" data-cards={board.length} aria-label="Board">
        {Array.from({ length: 5 }, (_, i) =>
          board[i] !== undefined ? (
            <PlayingCard key={`${hand?.handNumber}-${i}-${board[i]}`} card={board[i]!} size={size} />
          ) : (
            <span
              key={i}
              className={cn(
                "shrink-0 rounded-lg border-2 border-dashed border-foreground/15",
                size === "sm" ? "h-16 w-11" : "h-24 w-16 sm:h-28 sm:w-20",
              )}
              aria-hidden
            />
          ),
        )}
      </div>
      {hand && !result && (
        <p className="rounded-full bg-black/25 px-3 py-0.5 text-sm font-bold text-white" data-testid="holdem-pot" data-pot={hand.pot}>
          Pot {formatCoins(hand.pot)}
        </p>
      )}
      {result && (
        <div className="flex flex-col items-center gap-0.5" data-testid="holdem-result" data-showdown={result.showdown}>
          {result.pots.length > 1 && (
            <p className="text-xs text-muted-foreground">
              {result.pots.map((p, i) => `${i === 0 ? "Main pot" : `Side pot ${i}`} ${formatCoins(p.amount)}`).join(" · ")}
            </p>
          )}
          {lines.map((line) => (
            <p key={line} className="text-sm font-bold text-positive">
              {line}
            </p>
          ))}
        </div>
      )}
    </div>
  );
}

/** Without a seat: the buy-in within the table's range, and a seat to take it to. */
function BuyInPanel(props: {
  controls: HoldemRoomControls;
  range: { min: number; max: number };
  value: string;
  onChange(value: string): void;
  error: string | null;
  free: number[];
  canSit: boolean;
  onSit(seat: number): void;
}) {
  const { controls, range, free } = props;
  return (
    <div className="flex flex-col gap-2 rounded-xl border border-border bg-card p-3 text-sm" data-testid="holdem-buy-in-panel">
      <div className="flex items-end gap-2">
        <label className="flex min-w-0 flex-1 flex-col gap-1">
          <span className="font-semibold">Buy-in</span>
          <input
            type="number"
            inputMode="numeric"
            min={range.min}
            max={range.max}
            value={props.value}
            onChange={(e) => props.onChange(e.target.value)}
            data-testid="holdem-buy-in"
            className="h-11 w-full rounded-lg border border-border bg-background px-3 text-base tabular-nums outline-none focus:border-primary"
          />
        </label>
        <button
          type="button"
          data-testid="holdem-sit"
          disabled={!props.canSit || free.length === 0}
          onClick={() => props.onSit(free[0]!)}
          className={cn("min-h-11 shrink-0 rounded-lg px-4 font-bold disabled:cursor-not-allowed disabled:opacity-40", ACTION_TONES.go)}
        >
          Sit down
        </button>
      </div>
      <p className="text-xs text-muted-foreground">
        From {formatCoins(range.min)} to {formatCoins(range.max)} coins, moved from your balance to the table; what is left goes back when
        you leave.
        {free.length === 0 ? " Every seat is taken: watch until one frees up." : " Or press Sit on a free seat."}
      </p>
      {(props.error || controls.error) && (
        <p role="alert" className="text-xs font-medium text-destructive" data-testid="holdem-error">
          {props.error ?? controls.error}
        </p>
      )}
    </div>
  );
}

/** The seated player's panel: their choices on their turn, sitting out and leaving. */
function SeatPanel({ controls, table, hand }: { controls: HoldemRoomControls; table: HoldemTableSnapshot; hand: Hand | null }) {
  const me = controls.me!;
  const legal = controls.own?.legal ?? null;
  const myTurn = table.phase === "playing" && hand !== null && hand.toAct === me.seat && legal !== null;
  const connected = controls.status === "open";
  const enabled = myTurn && connected && !controls.pending;
  const committed = hand?.seats.find((s) => s.seat === me.seat)?.committed ?? 0;

  let wait: string;
  if (me.status === "sittingOut") wait = "You are sitting out: you are dealt nothing until you come back";
  else if (table.phase === "playing" && hand && !hand.seats.some((s) => s.seat === me.seat)) wait = "You are dealt in from the next hand";
  else if (table.phase === "playing" && hand?.toAct != null) wait = `${nameAt(table, hand.toAct)} to act`;
  else if (table.phase === "waiting") wait = "Waiting for another player";
  else wait = "Next hand soon";

  return (
    <div className="flex flex-col gap-2" data-testid="holdem-seat-panel">
      {myTurn && hand ? (
        <Actions
          key={`${hand.handNumber}-${hand.phase}-${hand.currentBet}`}
          legal={legal}
          hand={hand}
          committed={committed}
          enabled={enabled}
          act={controls.act}
        />
      ) : (
        <p className="rounded-lg bg-muted px-3 py-3 text-center text-sm font-semibold" data-testid="holdem-wait">
          {wait}
        </p>
      )}
      {controls.error && (
        <p role="alert" className="text-xs font-medium text-destructive" data-testid="holdem-error">
          {controls.error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {me.status === "sittingOut" ? (
          <>
            <SmallButton testId="holdem-come-back" disabled={controls.pending} onClick={() => void controls.comeBack(false)}>
              Come back
            </SmallButton>
            <SmallButton testId="holdem-post-now" disabled={controls.pending} onClick={() => void controls.comeBack(true)}>
              Post the big blind now
            </SmallButton>
          </>
        ) : (
          <SmallButton testId="holdem-sit-out" disabled={controls.pending} onClick={() => void controls.sitOut()}>
            Sit out
          </SmallButton>
        )}
        <SmallButton testId="holdem-leave" disabled={controls.pending || me.leaving} onClick={() => void controls.leave()}>
          {me.leaving ? "Leaving after this hand…" : `Leave seat ${me.seat}`}
        </SmallButton>
      </div>
    </div>
  );
}

function SmallButton(props: { testId: string; disabled: boolean; onClick(): void; children: string }) {
  return (
    <button
      type="button"
      data-testid={props.testId}
      disabled={props.disabled}
      onClick={props.onClick}
      className="min-h-9 rounded-lg px-3 py-1 text-sm text-muted-foreground ring-1 ring-border hover:text-foreground disabled:opacity-50"
    >
      {props.children}
    </button>
  );
}

/** Fold, check or call, and a bet or raise sized by the presets or a typed amount: only the legal ones enabled. */
function Actions(props: {
  legal: LegalActions;
  hand: Hand;
  committed: number;
  enabled: boolean;
  act(action: HoldemAction): Promise<void>;
}) {
  const { legal, hand, committed, enabled } = props;
  const sizing: Sizing | null = sizingOf(legal);
  const [text, setText] = useState(() => (sizing ? String(sizing.min) : ""));
  const sized = sizing ? typedSize(sizing, text) : null;
  const amount = sized && "amount" in sized ? sized.amount : null;
  const sizes = sizing ? presets(sizing, hand, committed) : [];
  const act = (action: HoldemAction) => void props.act(action);
  const button = (id: string, label: string, onClick: () => void, on: boolean, tone: keyof typeof ACTION_TONES) => (
    <button
      type="button"
      data-testid={id}
      disabled={!on}
      onClick={onClick}
      className={cn(
        "min-h-11 rounded-lg px-2 py-2 text-sm font-bold disabled:cursor-not-allowed disabled:opacity-40 sm:text-base",
        ACTION_TONES[tone],
      )}
    >
      {label}
    </button>
  );
  const raiseLabel = !sizing
    ? "Raise"
    : amount === null
      ? sizing.type === "bet"
        ? "Bet"
        : "Raise to"
      : amount === sizing.max
        ? `All-in ${formatCoins(amount)}`
        : `${sizing.type === "bet" ? "Bet" : "Raise to"} ${formatCoins(amount)}`;
  return (
    <div className="flex flex-col gap-2" data-testid="holdem-actions">
      <div className="grid grid-cols-3 gap-2">
        {button("holdem-fold", "Fold", () => act({ type: "fold" }), enabled && legal.fold, "stop")}
        {legal.check
          ? button("holdem-check", "Check", () => act({ type: "check" }), enabled, "plain")
          : button(
              "holdem-call",
              legal.call === null ? "Call" : `Call ${formatCoins(legal.call)}`,
              () => act({ type: "call" }),
              enabled && legal.call !== null,
              "info",
            )}
        {button(
          "holdem-raise",
          raiseLabel,
          () => sizing && amount !== null && act(sizedAction(sizing, amount)),
          enabled && sizing !== null && amount !== null,
          "go",
        )}
      </div>
      {sizing && (
        <div className="flex items-center gap-1.5">
          {sizes.map((p) => (
            <button
              key={p.id}
              type="button"
              data-testid={`holdem-size-${p.id}`}
              disabled={!enabled}
              onClick={() => setText(String(p.amount))}
              aria-label={`${p.label}: ${p.amount}`}
              className={cn(
                "min-h-9 flex-1 rounded-md px-1 text-xs font-semibold ring-1 ring-border disabled:opacity-40",
                amount === p.amount ? "bg-primary text-primary-foreground" : "bg-muted text-foreground hover:bg-border",
              )}
            >
              {p.label}
            </button>
          ))}
          <label className="sr-only" htmlFor="holdem-amount">
            {sizing.type === "bet" ? "Bet amount" : "Raise to"}
          </label>
          <input
            id="holdem-amount"
            type="number"
            inputMode="numeric"
            min={sizing.min}
            max={sizing.max}
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid="holdem-amount"
            aria-invalid={amount === null}
            className="h-9 w-20 shrink-0 rounded-md border border-border bg-background px-2 text-base tabular-nums outline-none focus:border-primary aria-invalid:border-destructive"
          />
        </div>
      )}
      {sized && "error" in sized && (
        <p className="text-xs text-destructive" role="alert">
          {sized.error}
        </p>
      )}
    </div>
  );
}

/** The hand's seed commitment, and the last hand's seed revealed with its record to deal it again. */
function HandFairness({ table }: { table: HoldemTableSnapshot }) {
  const previous = table.previousHand;
  const hash = table.hand && table.phase === "playing" ? table.hand.serverSeedHash : table.nextServerSeedHash;
  return (
    <div className="flex flex-col gap-1.5 rounded-xl border border-border bg-card p-3 text-xs" data-testid="holdem-fairness">
      <p className="font-semibold">Provably fair</p>
      <p className="text-muted-foreground">
        {table.phase === "playing" ? "This hand's" : "The next hand's"} server seed hash:{" "}
        <code className="break-all text-foreground" data-testid="holdem-seed-hash">
          {hash}
        </code>
      </p>
      {previous && <SeedReveal previous={previous} />}
    </div>
  );
}

function SeedReveal({ previous }: { previous: HoldemRevealedHand }) {
  const href = useMemo(() => `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(previous, null, 2))}`, [previous]);
  const file = `holdem-hand-${previous.start.handNumber}.json`;
  return (
    <div
      className="flex flex-col gap-1 border-t border-border pt-1.5"
      data-testid="holdem-seed-reveal"
      data-hand={previous.start.handNumber}
    >
      <p>
        Hand {previous.start.handNumber}&apos;s server seed:{" "}
        <code className="break-all" data-testid="holdem-revealed-seed">
          {previous.serverSeed}
        </code>
      </p>
      <p className="text-muted-foreground">
        <a href={href} download={file} className="text-primary-ink underline" data-testid="holdem-hand-record">
          Download the hand&apos;s record
        </a>{" "}
        and deal it again with <code className="text-foreground">npm run verify -- --holdem-hand {file}</code>: it checks the seed against
        the hash shown before the hand and compares the cards and stacks.
      </p>
    </div>
  );
}
