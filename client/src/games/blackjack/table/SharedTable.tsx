import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { MotionConfig } from "motion/react";
import { insuranceCost, type BlackjackAction } from "@casino/common/games/blackjack/engine";
import { TABLE_SEATS } from "@casino/common/games/shoe";
import type { TableSnapshot } from "@casino/common/table";
import type { GameTableProps, SharedTableRoom } from "../../contract";
import { BetPanel } from "../../shared/BetPanel";
import { ACTION_TONES } from "../../shared/ActionButton";
import { Hand } from "../../shared/Cards";
import { GameHelp } from "../../shared/GameHelp";
import { InvitePrompt } from "../../shared/InvitePrompt";
import { ReconnectingBadge, TableJoining, TableStatusLine } from "../../shared/TableStatus";
import { TurboSwitch } from "../../shared/GameFrame";
import { useInstantAnimations } from "../../shared/fast-reveal";
import { formatCoins } from "../../shared/format";
import { useStake } from "../../shared/use-stake";
import { useFastReveal } from "../../../ui/useReducedMotion";
import { useMediaQuery } from "../../../ui/useMediaQuery";
import { useNow } from "../../../ui/useNow";
import { BLACKJACK_HELP } from "../solo";
import { ShoeFairness } from "./ShoeFairness";
import { Seat } from "./Seat";
import { secondsLeft } from "../../shared/server-clock";
import { useTableRoom, type TableRoomControls } from "./use-table-room";
import { useTableHeaderChip } from "./header-chip";

/** The phases an invite is offered in (not while cards are dealt and played). */
const BETWEEN_ROUNDS = new Set<TableSnapshot["phase"]>(["waiting", "betting", "settled"]);
const SEATS = Array.from({ length: TABLE_SEATS }, (_, i) => i + 1);
/** How far each seat sits below the top of the arc, seat 1 to 7 (rem): the seats curve round the dealer. */
const ARC_REM = [0, 1.75, 3, 3.5, 3, 1.75, 0];

const nameAt = (table: TableSnapshot, seat: number | null): string =>
  table.players.find((p) => p.seat === seat)?.username ?? `Seat ${seat}`;

/** The line over the felt: what the table is doing and how long it has left. */
function phaseText(table: TableSnapshot, now: number, mySeat: number | null): string {
  const left = secondsLeft(table, now);
  const timer = left === null ? "" : ` · ${left}s`;
  switch (table.phase) {
    case "waiting":
      return table.players.length === 0 ? "Waiting for players: take a seat" : "Waiting for the next round";
    case "betting":
      return `Place your bets${timer}`;
    case "insurance":
      return table.toAct === mySeat ? `Insurance? Your decision${timer}` : `Insurance: ${nameAt(table, table.toAct)} decides${timer}`;
    case "turns":
      return table.toAct === mySeat ? `Your turn${timer}` : `${nameAt(table, table.toAct)} to play${timer}`;
    case "dealer":
      return "The dealer plays";
    case "settled":
      return "Round over: the next betting window opens shortly";
  }
}

const TABLE_RULES = (
  <ul className="list-disc space-y-1 pl-5">
    <li>Up to seven players against one dealer and one six-deck shoe, dealt to its cut card; everyone else watches.</li>
    <li>Bet in the betting window, then press Ready: the deal starts when every seated player is ready, or when the window closes.</li>
    <li>Seats play in turn, seat 1 first. A seat that does not act in time stands (insurance is declined).</li>
    <li>The dealer stands on all 17s and checks for blackjack when showing an ace or a ten.</li>
    <li>Double on any first two cards (also after a split); split two cards of the same rank. Insurance pays 2:1. No surrender.</li>
    <li>
      The shoe&apos;s seed is committed (its SHA-256 shown) before its first round and revealed when the shoe ends, with every round&apos;s
      bets and actions, so anyone can deal the whole shoe again.
    </li>
  </ul>
);

/**
 * The shared blackjack table: seven seats round the dealer, one shoe for everyone. Seated players bet,
 * press Ready and play in turn; without a seat the player watches and may sit at a free seat. Every
 * card, timer and result comes from the room's snapshot.
 */
export function SharedTable({ shared, table: props }: { shared: SharedTableRoom; table: GameTableProps }) {
  const controls = useTableRoom(shared);
  const { table, status, me } = controls;
  const fast = useFastReveal();
  useInstantAnimations(fast);
  const [helpOpen, setHelpOpen] = useState(false);
  // Every timer on the table by the server's clock, whatever this device's says; never earlier than the
  // snapshot's own stamp: the clock ticks every 250 ms, so its last reading can be older than the
  // snapshot that just arrived, and a fresh 8-s turn read 9 s.
  const now = Math.max(useNow(250) + controls.clockOffset, table?.serverTime ?? 0);
  const wide = useMediaQuery("(min-width: 768px)");
  const mySeat = me?.seat ?? null;
  const dealKey = table ? `${table.shoe?.id ?? ""}-${table.view?.round ?? 0}` : "none";

  const seatProps = (seat: number) => {
    const player = table!.players.find((p) => p.seat === seat) ?? null;
    return {
      seat,
      player,
      round: table!.view?.seats.find((s) => s.seat === seat) ?? null,
      table: table!,
      mine: seat === mySeat,
      now,
      dealKey,
      onSit: !me && !player ? () => void controls.sit(seat) : null,
      sitDisabled: controls.pending || status !== "open",
      reactions: shared.instanceId !== null,
    };
  };

  return (
    <MotionConfig reducedMotion={fast ? "always" : "user"}>
      <section
        data-testid="bj-table"
        data-phase={table?.phase ?? "connecting"}
        data-to-act={table?.toAct ?? ""}
        data-my-seat={mySeat ?? ""}
        aria-label="Blackjack table"
        className="mx-auto flex w-full max-w-6xl flex-col gap-3 text-foreground sm:gap-4 sm:p-4"
      >
        <div className="flex flex-col-reverse gap-4 lg:flex-row">
          <aside className="flex w-full shrink-0 flex-col gap-3 lg:w-80">
            {table && me ? (
              <SeatPanel controls={controls} table={table} props={props} now={now} onShowHelp={() => setHelpOpen(true)} />
            ) : (
              <WatchPanel controls={controls} onShowHelp={() => setHelpOpen(true)} instance={shared.instanceId !== null} />
            )}
            {shared.invite && table && table.players.length < TABLE_SEATS && BETWEEN_ROUNDS.has(table.phase) && (
              <InvitePrompt invite={shared.invite} text="Bring friends to a free seat." testId="table-invite" />
            )}
            <TurboSwitch />
            {table && <ShoeFairness table={table} session={props.session ?? null} />}
          </aside>
          <div className="relative min-h-[320px] min-w-0 flex-1 overflow-hidden rounded-xl bg-felt p-2 ring-1 ring-border sm:p-4">
            {table ? (
              <div className="flex flex-col gap-3">
                <TableStatusLine phase={phaseText(table, now, mySeat)} phaseTestId="table-phase" watchersTestId="table-watchers">
                  {table.players.length}/{TABLE_SEATS} seated · {table.watchers} watching
                  {table.view && <> · {table.view.shoe.cardsLeft} cards left in the shoe</>}
                </TableStatusLine>
                <ReconnectingBadge status={status} />
                <Hand
                  label="Dealer"
                  testId="table-dealer"
                  size={wide ? "md" : "sm"}
                  cards={table.view?.dealer ?? []}
                  dealKey={dealKey}
                  delayOf={() => 0.05}
                  total={
                    table.view?.dealerTotal != null
                      ? `${table.view.dealerTotal}${table.view.dealerBlackjack ? " · blackjack" : table.view.dealerTotal > 21 ? " · bust" : ""}`
                      : undefined
                  }
                />
                {wide ? (
                  <ol className="grid grid-cols-7 gap-1.5 pb-2" aria-label="Seats">
                    {SEATS.map((seat) => (
                      <li key={seat} style={{ marginTop: `${ARC_REM[seat - 1]}rem` }}>
                        <Seat {...seatProps(seat)} size="sm" />
                      </li>
                    ))}
                  </ol>
                ) : (
                  <PhoneSeats seatProps={seatProps} mySeat={mySeat} table={table} />
                )}
              </div>
            ) : (
              <TableJoining status={status} className="grid h-72 place-items-center text-muted-foreground" />
            )}
          </div>
        </div>
        <GameHelp
          game={props.game}
          open={helpOpen}
          onClose={() => setHelpOpen(false)}
          content={{ ...BLACKJACK_HELP, rules: TABLE_RULES }}
        />
      </section>
    </MotionConfig>
  );
}

/** On a phone: the player's own seat large, then the other seated players as rows, free seats as one line. */
function PhoneSeats({
  seatProps,
  mySeat,
  table,
}: {
  seatProps: (seat: number) => Omit<Parameters<typeof Seat>[0], "size">;
  mySeat: number | null;
  table: TableSnapshot;
}) {
  const taken = new Set(table.players.map((p) => p.seat));
  const others = SEATS.filter((s) => s !== mySeat && taken.has(s));
  const free = SEATS.filter((s) => !taken.has(s));
  return (
    <div className="flex flex-col gap-2">
      {mySeat !== null && <Seat {...seatProps(mySeat)} size="lg" />}
      <ol className="flex flex-col gap-1.5" aria-label="Seats">
        {others.map((seat) => (
          <li key={seat}>
            <Seat {...seatProps(seat)} size="row" />
          </li>
        ))}
      </ol>
      {free.length > 0 && (
        <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground" data-testid="table-free-seats">
          <span>Free seats:</span>
          {free.map((seat) => {
            const p = seatProps(seat);
            return p.onSit ? (
              <button
                key={seat}
                type="button"
                data-testid={`table-sit-${seat}`}
                disabled={p.sitDisabled}
                onClick={p.onSit}
                aria-label={`Sit at seat ${seat}`}
                className="min-h-8 min-w-8 rounded-lg bg-primary inset-ring-2 inset-ring-primary-edge px-2.5 text-sm font-semibold text-primary-foreground disabled:opacity-50"
              >
                {seat}
              </button>
            ) : (
              <span key={seat} className="rounded-md bg-card px-2 py-1">
                {seat}
              </span>
            );
          })}
        </div>
      )}
    </div>
  );
}

/** Without a seat: what watching means and how to sit. */
function WatchPanel({ controls, onShowHelp, instance }: { controls: TableRoomControls; onShowHelp(): void; instance: boolean }) {
  const { table } = controls;
  const free = table ? TABLE_SEATS - table.players.length : 0;
  return (
    <div className="flex flex-col gap-2 rounded-xl border border-border bg-card p-4 text-sm" data-testid="table-watch-panel">
      <div className="flex items-center justify-between">
        <span className="font-semibold">Watching</span>
        <button type="button" onClick={onShowHelp} className="min-h-8 rounded-md px-2 py-1 text-muted-foreground hover:bg-muted">
          Rules
        </button>
      </div>
      <p className="text-muted-foreground">
        {instance
          ? "This activity's table: everyone in the call sees the same cards."
          : "A public table: everyone playing outside Discord can join it."}{" "}
        {free > 0 ? "Press Sit on a free seat to play from the next round." : "Every seat is taken; you can watch until one frees up."}
      </p>
      {controls.error && (
        <p role="alert" className="text-xs font-medium text-destructive" data-testid="table-error">
          {controls.error}
        </p>
      )}
    </div>
  );
}

/** The seated player's panel: the bet in the betting window, Ready, then the actions on their turn. */
function SeatPanel({
  controls,
  table,
  props,
  now,
  onShowHelp,
}: {
  controls: TableRoomControls;
  table: TableSnapshot;
  props: GameTableProps;
  now: number;
  onShowHelp(): void;
}) {
  const me = controls.me!;
  const stake = useStake(props.game.id, props.balance);
  const mine = table.view?.seats.find((s) => s.seat === me.seat) ?? null;
  useTableHeaderChip(me.bet, mine);
  const myTurn = table.toAct === me.seat;
  const actions = myTurn ? (table.view?.actions ?? []) : [];
  const hand = mine?.hands[mine.active] ?? null;
  const connected = controls.status === "open";
  const can = (type: string) => myTurn && connected && !controls.pending && actions.includes(type as BlackjackAction["type"]);
  const canBet = table.phase === "betting" && me.bet === null;
  const left = secondsLeft(table, now);

  const act = (action: BlackjackAction) => void controls.act(action);
  const keys = useRef({ act, can, ready: () => undefined as void, canReady: false, hand, balance: props.balance, mine });
  const canReady = table.phase === "betting" && me.bet !== null && !me.ready && connected && !controls.pending;
  useLayoutEffect(() => {
    keys.current = { act, can, ready: () => void controls.ready(), canReady, hand, balance: props.balance, mine };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      const k = keys.current;
      const key = e.key.toLowerCase();
      if (key === "h" && k.can("hit")) k.act({ type: "hit" });
      else if (key === "s" && k.can("stand")) k.act({ type: "stand" });
      else if (key === "d" && k.can("double") && k.hand && k.balance >= k.hand.stake) k.act({ type: "double" });
      else if (key === "p" && k.can("split") && k.hand && k.balance >= k.hand.stake) k.act({ type: "split" });
      else if (key === "i" && k.can("insurance")) k.act({ type: "insurance", take: true });
      else if (key === "n" && k.can("insurance")) k.act({ type: "insurance", take: false });
      else if (key === "r" && k.canReady) k.ready();
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const button = (id: string, label: string, onClick: () => void, enabled: boolean, tone: keyof typeof ACTION_TONES = "plain") => (
    <button
      type="button"
      data-testid={id}
      disabled={!enabled}
      onClick={onClick}
      className={`min-h-11 rounded-lg px-2 py-2.5 font-bold disabled:cursor-not-allowed disabled:opacity-40 ${ACTION_TONES[tone]}`}
    >
      {label}
    </button>
  );

  const waitLine = (text: string) => (
    <p className="rounded-lg bg-muted px-3 py-3 text-center text-sm font-semibold" data-testid="table-wait">
      {text}
    </p>
  );

  let roundActions;
  if (table.phase === "betting" && me.bet !== null) {
    roundActions = me.ready
      ? waitLine(`Ready · waiting for the other seats${left === null ? "" : ` (${left}s)`}`)
      : button("table-ready", `Ready${left === null ? "" : ` (${left}s)`}`, () => void controls.ready(), canReady, "go");
  } else if (myTurn && table.phase === "insurance") {
    const cost = insuranceCost(mine?.bet ?? 0);
    roundActions = (
      <div className="grid grid-cols-2 gap-2">
        {button(
          "table-insurance-take",
          `Insure (${formatCoins(cost)})`,
          () => act({ type: "insurance", take: true }),
          can("insurance") && props.balance >= cost,
          "info",
        )}
        {button("table-insurance-decline", "No insurance", () => act({ type: "insurance", take: false }), can("insurance"))}
      </div>
    );
  } else if (myTurn && table.phase === "turns") {
    const cost = hand?.stake ?? 0;
    roundActions = (
      <div className="grid grid-cols-2 gap-2">
        {button("table-hit", "Hit", () => act({ type: "hit" }), can("hit"), "go")}
        {button("table-stand", "Stand", () => act({ type: "stand" }), can("stand"), "stop")}
        {button("table-double", `Double (${formatCoins(cost)})`, () => act({ type: "double" }), can("double") && props.balance >= cost)}
        {button("table-split", `Split (${formatCoins(cost)})`, () => act({ type: "split" }), can("split") && props.balance >= cost)}
      </div>
    );
  } else if (table.phase === "betting") {
    roundActions = null; // the bet button
  } else if (!me.inRound && table.phase !== "waiting") {
    roundActions = waitLine("You play from the next round");
  } else if (table.phase === "insurance" || table.phase === "turns") {
    roundActions = waitLine(`${nameAt(table, table.toAct)} is playing`);
  } else if (table.phase === "dealer") {
    roundActions = waitLine("The dealer plays");
  } else {
    roundActions = waitLine("Next round soon");
  }

  return (
    <div className="flex flex-col gap-2" data-testid="table-seat-panel">
      <BetPanel
        game={props.game}
        stake={stake}
        total={stake.amount}
        params={{}}
        pending={controls.pending}
        serverError={controls.error}
        connected={connected}
        balance={props.balance}
        label="Bet"
        onBet={() => void controls.bet(stake.amount)}
        locked={!canBet}
        roundActions={roundActions}
        onShowHelp={onShowHelp}
        hotkeys={[
          { key: "R", does: "Ready (after your bet)" },
          { key: "H", does: "Hit (your turn)" },
          { key: "S", does: "Stand (your turn)" },
          { key: "D", does: "Double (your turn)" },
          { key: "P", does: "Split (your turn)" },
          { key: "I / N", does: "Take or decline insurance" },
        ]}
      />
      <button
        type="button"
        data-testid="table-leave"
        disabled={controls.pending || me.leaving}
        onClick={() => void controls.leave()}
        className="min-h-8 self-start rounded-lg px-3 py-1 text-sm text-muted-foreground ring-1 ring-border hover:text-foreground disabled:opacity-50"
      >
        {me.leaving ? "Leaving after this round…" : `Leave seat ${me.seat}`}
      </button>
    </div>
  );
}
