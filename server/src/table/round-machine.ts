import {
  GameRuleError,
  TABLE_SEATS_COUNT,
  type RoundingRule,
  type TableRoomPhase,
  type TableSeatPlayer,
  type TableSnapshot,
} from "@casino/common";
import type { SeatSeed } from "@casino/common/games/shoe";
import {
  act,
  deal,
  dealerTurn,
  defaultAction,
  newShoe,
  nextRound,
  seatToAct,
  shoeFinished,
  tableView,
  type TableState,
} from "@casino/common/games/blackjack-table";
import type { TableSettings } from "../platform/config";
import { replayShoe, settleByDefault, type StoredRound } from "./table-replay";

/**
 * The shared blackjack table's round machine: `step(machine, event, now) -> { machine, effects }`.
 *
 * It owns the table's timing and seats around the card engine (common/games/blackjack-table.ts): seats
 * taken and given up, the betting window (its deadline, or everyone bet and Ready), the deal, insurance
 * and turns with the turn timer (a seat that does not act in time, or whose player is gone, is stood
 * for), the dealer, the settlement, the pause on the result, a finished shoe and the next one, and a
 * dropped player's grace. It does no I/O and reads no clock: the time is the `now` it is given, every
 * wait is a wake-up time it asks for (`wakeAt`), and everything the table must do outside itself (the
 * ledger, the store, the lease, ending a reconnection) is an effect the room carries out and answers
 * with an event. The restart rule (`restartPlan`) plays a left-open round out with the same engine.
 */

/** One action of a round as recorded (`table_rounds.actions`): what `verifyShoe` replays. */
export interface RecordedAction {
  seat: number;
  action: unknown;
}

/** What a seat's settlement records in the player's game session. */
export interface SeatSettlement {
  payout: number;
  staked: number;
  /** The seat's own actions, in order. */
  actions: unknown[];
  /** The seat's hands, the dealer's cards and the shoe's rounding rule. */
  outcome: unknown;
}

/** The shoe being dealt, as the machine needs it (its seed stays on the server). */
export interface MachineShoe {
  id: string;
  serverSeed: string;
  serverSeedHash: string;
  seats: SeatSeed[] | null;
  rounding: RoundingRule;
}

export type PreviousShoe = TableSnapshot["previousShoe"];

/** A seat as the table holds it. */
export interface MachineSeat {
  seat: number;
  playerId: string;
  username: string;
  avatarUrl: string | null;
  face: string | null;
  /** The connection holding the seat (a reconnection keeps it, a new connection takes it over). */
  sessionId: string;
  connected: boolean;
  ready: boolean;
  bet: number | null;
  inRound: boolean;
  leaving: boolean;
}

/** A dropped connection (seated or watching) that may come back until `until`. */
export interface Grace {
  sessionId: string;
  playerId: string;
  until: number;
}

/** A bet of the dealt round as the store returned it. */
export interface DealtBet {
  betId: string;
  seat: number;
  playerId: string;
  amount: number;
}

/**
 * Where the machine is. `starting`, `opening`, `recovering`, `openingRound`, `closing`, `dealing`,
 * `settling`, `finishing` and `abandoning` wait for the answer of the effect they asked for; `betting`,
 * `playing` and `settled` wait for the players or their deadline; `idle` waits for a seat, `backoff` for
 * its retry time; `stopped` takes no more turns.
 */
export type MachineStage =
  | "starting" // the previous shoe is read
  | "idle" // nobody seated (or between rounds)
  | "backoff" // another process deals this table, or a round failed: try again at `retryAt`
  | "opening" // a new shoe is committed
  | "recovering" // a shoe left by a stopped process is settled first
  | "openingRound" // the round's record is opened
  | "betting" // the betting window
  | "closing" // the window is closed: bets still being written are waited for
  | "dealing" // the store deals (reads the bets)
  | "playing" // insurance and turns
  | "settling" // the ledger settles every seat
  | "settled" // the pause on the result
  | "finishing" // the finished shoe's seed is revealed
  | "abandoning" // a failed round is settled from its record
  | "stopped";

export interface TableMachine {
  stage: MachineStage;
  /** The phase shown while no dealt round is on the table. */
  phase: TableRoomPhase;
  /** Seats in seat order. */
  seats: MachineSeat[];
  shoe: MachineShoe | null;
  engine: TableState | null;
  /** The dealt round is on the table (from the deal to the end of the settled pause). */
  roundLive: boolean;
  roundId: string | null;
  /** The round's record so far. */
  actions: RecordedAction[];
  /** The dealt round's bets. */
  bets: DealtBet[];
  /** The deadline shown: the betting window's, the turn's or the settled pause's. */
  deadline: number | null;
  /** The record index the running turn timer is for. */
  turnIndex: number | null;
  /** When the `backoff` stage ends. */
  retryAt: number | null;
  /** Bets being written by the ledger. */
  pendingBets: number;
  /** An action (a player's or a default one) is being written: the next waits for it. */
  recording: boolean;
  /** The player's action being written (applied once the ledger answers). */
  pendingAct: (RecordedAction & { index: number }) | null;
  /** The lease on the shoe was lost: the round is another process's to settle. */
  shoeLost: boolean;
  previousShoe: PreviousShoe;
  /** Dropped connections waiting to come back. */
  graces: Grace[];
}

export type MachineEvent =
  | { type: "start" }
  | { type: "tick" }
  | { type: "stop" }
  // Seats and connections.
  | { type: "sit"; playerId: string; sessionId: string; seat: number; username: string; avatarUrl: string | null; face: string | null }
  | { type: "stand"; playerId: string }
  | { type: "ready"; playerId: string }
  | { type: "join"; playerId: string; sessionId: string }
  | { type: "drop"; playerId: string; sessionId: string }
  | { type: "reconnect"; playerId: string; sessionId: string }
  | { type: "leave"; playerId: string; sessionId: string }
  // A player's money messages and the ledger's answers.
  | { type: "bet"; playerId: string; requestId: string; amount: number }
  | { type: "betPlaced"; playerId: string; roundId: string; amount: number }
  | { type: "betFailed" }
  | { type: "act"; playerId: string; requestId: string; action: unknown }
  | { type: "actRecorded"; index: number; replayed: boolean }
  | { type: "actFailed" }
  // The store's answers.
  | { type: "previousLoaded"; previousShoe: PreviousShoe }
  | { type: "shoeOpened"; shoe: MachineShoe }
  | { type: "shoeBusy" }
  | { type: "shoeStale"; shoeId: string }
  | { type: "staleRecovered"; previousShoe: PreviousShoe }
  | { type: "roundOpened"; roundId: string }
  | { type: "dealt"; bets: DealtBet[]; seats: SeatSeed[] | null }
  | { type: "defaultRecorded"; index: number; ok: boolean }
  | { type: "roundClosed" }
  | { type: "shoeFinished" }
  | { type: "abandoned"; previousShoe: PreviousShoe }
  | { type: "leaseLost"; shoeId: string }
  | { type: "failed"; reason: string };

export type MachineEffect =
  | { type: "loadPrevious" }
  | { type: "openShoe" }
  | { type: "recoverStale"; shoeId: string }
  | { type: "holdLease"; shoeId: string }
  | { type: "releaseLease" }
  | { type: "openRound"; shoeId: string; round: number }
  | { type: "placeBet"; playerId: string; requestId: string; roundId: string; seat: number; amount: number }
  | { type: "deal"; roundId: string; shoeId: string; seated: { seat: number; playerId: string }[] }
  | { type: "recordAct"; playerId: string; requestId: string; roundId: string; seat: number; index: number; action: unknown; stake: number }
  | { type: "recordDefault"; roundId: string; index: number; entry: RecordedAction }
  | {
      type: "settle";
      roundId: string;
      shoeHash: string;
      round: number;
      seats: { betId: string; playerId: string; seat: number; settlement: SeatSettlement }[];
    }
  | { type: "finishShoe"; shoeId: string }
  | { type: "abandon"; shoeId: string | null; reason: string }
  | { type: "endGrace"; sessionId: string }
  | { type: "wake"; at: number | null };

/** Why a player's message changes nothing: a stable code, an HTTP-like status and the player's message. */
export interface Refusal {
  code: string;
  status: number;
  message: string;
}

export interface Step {
  machine: TableMachine;
  effects: MachineEffect[];
  /** The player's message is refused (the machine is unchanged). */
  refusal?: Refusal;
  /** The seat a player's message concerned. */
  seat?: number;
  /** A player's action must wait for the action being written: send it again once that is answered. */
  busy?: boolean;
}

export type MachineSettings = Pick<TableSettings, "bettingMs" | "turnMs" | "settledMs" | "reconnectSeconds" | "leaseMs">;

/** A table before its first event. */
export function initialMachine(): TableMachine {
  return {
    stage: "starting",
    phase: "waiting",
    seats: [],
    shoe: null,
    engine: null,
    roundLive: false,
    roundId: null,
    actions: [],
    bets: [],
    deadline: null,
    turnIndex: null,
    retryAt: null,
    pendingBets: 0,
    recording: false,
    pendingAct: null,
    shoeLost: false,
    previousShoe: null,
    graces: [],
  };
}

/** How long the table waits after a failed round before dealing again. */
export const FAILURE_RETRY_MS = 1_000;

const refuse = (machine: TableMachine, code: string, message: string, status = 409): Step => ({
  machine,
  effects: [],
  refusal: { code, status, message },
});

const withoutGrace = (m: TableMachine, sessionId: string): TableMachine =>
  m.graces.some((g) => g.sessionId === sessionId) ? { ...m, graces: m.graces.filter((g) => g.sessionId !== sessionId) } : m;

const seatOf = (m: TableMachine, playerId: string) => m.seats.find((s) => s.playerId === playerId);

const withSeat = (m: TableMachine, seatNo: number, change: Partial<MachineSeat>): TableMachine => ({
  ...m,
  seats: m.seats.map((s) => (s.seat === seatNo ? { ...s, ...change } : s)),
});

/** Frees the seat now, or once the round it has a bet in is over (it is stood for meanwhile). */
function release(m: TableMachine, seatNo: number): TableMachine {
  const seat = m.seats.find((s) => s.seat === seatNo);
  if (!seat) return m;
  if (seat.bet !== null || seat.inRound) return withSeat(m, seatNo, { leaving: true });
  return { ...m, seats: m.seats.filter((s) => s.seat !== seatNo) };
}

/** Seats given up are freed; the others start the next round afresh. */
function clearRound(m: TableMachine): TableMachine {
  return {
    ...m,
    seats: m.seats.filter((s) => !s.leaving).map((s) => ({ ...s, inRound: false, bet: null, ready: false })),
  };
}

const allReady = (m: TableMachine): boolean => {
  const seated = m.seats.filter((s) => !s.leaving);
  return seated.length > 0 && seated.every((s) => s.bet !== null && s.ready);
};

/** The seat whose turn it is plays it itself: seated in the round, connected, not leaving. */
const present = (m: TableMachine, seatNo: number): boolean => {
  const seat = m.seats.find((s) => s.seat === seatNo);
  return !!seat && seat.inRound && seat.connected && !seat.leaving;
};

/** The next time the machine needs a `tick`, or null when only an event can move it. */
export function wakeAt(m: TableMachine): number | null {
  const times: number[] = [];
  if (m.stage === "backoff" && m.retryAt !== null) times.push(m.retryAt);
  if ((m.stage === "betting" || m.stage === "settled" || (m.stage === "playing" && m.turnIndex !== null)) && m.deadline !== null)
    times.push(m.deadline);
  if (m.stage !== "stopped") for (const g of m.graces) times.push(g.until);
  return times.length ? Math.min(...times) : null;
}

/**
 * One event at time `now`: the table's next state and what the room must do. A player's message that
 * is refused leaves the machine as it was and says why (`refusal`).
 */
export function step(machine: TableMachine, event: MachineEvent, now: number, settings: MachineSettings): Step {
  const before = wakeAt(machine);
  const result = apply(machine, event, now, settings);
  if (result.refusal || result.busy) return { ...result, machine };
  const driven = drive(result.machine, now, settings, result.effects);
  const after = wakeAt(driven.machine);
  // A tick is the room's timer firing, which leaves no timer behind: its next wake-up is asked for again,
  // even when unchanged (a timer may fire a millisecond before its moment by the machine's clock, and a
  // table left without a timer would stall).
  if (after !== before || event.type === "tick") driven.effects.push({ type: "wake", at: after });
  return { ...result, machine: driven.machine, effects: driven.effects };
}

function apply(m: TableMachine, e: MachineEvent, now: number, settings: MachineSettings): Step {
  const done = (machine: TableMachine, effects: MachineEffect[] = [], seat?: number): Step => ({ machine, effects, seat });
  // A stopped table deals no more: the answers of work still running and the clock change nothing.
  const fromPlayer = ["sit", "stand", "ready", "bet", "act", "join", "drop", "reconnect", "leave", "betPlaced", "betFailed"];
  if (m.stage === "stopped" && !fromPlayer.includes(e.type)) {
    // A shoe committed while the table stopped is still this table's to finish (the room settles it).
    if (e.type === "shoeOpened") return done({ ...m, shoe: e.shoe });
    // An action answered now is not applied (the round is settled from its record), but nothing waits for it any more.
    if (e.type === "actRecorded" || e.type === "actFailed" || e.type === "defaultRecorded")
      return done({ ...m, recording: false, pendingAct: null });
    return done(m);
  }
  switch (e.type) {
    case "start":
      return done({ ...m, stage: "starting" }, [{ type: "loadPrevious" }]);
    case "tick":
      return done(m);
    case "stop":
      return done({ ...m, stage: "stopped", deadline: null, turnIndex: null }, m.shoe ? [{ type: "releaseLease" }] : []);

    case "sit": {
      const held = seatOf(m, e.playerId);
      if (held) return refuse(m, "already_seated", `You are already at seat ${held.seat}`);
      if (m.seats.some((s) => s.seat === e.seat)) return refuse(m, "seat_taken", `Seat ${e.seat} is taken`);
      const seat: MachineSeat = {
        seat: e.seat,
        playerId: e.playerId,
        username: e.username,
        avatarUrl: e.avatarUrl,
        face: e.face,
        sessionId: e.sessionId,
        connected: true,
        ready: false,
        bet: null,
        inRound: false,
        leaving: false,
      };
      return done({ ...m, seats: [...m.seats, seat].sort((a, b) => a.seat - b.seat) }, [], e.seat);
    }
    case "stand": {
      const held = seatOf(m, e.playerId);
      if (!held) return refuse(m, "not_seated", "You have no seat at this table");
      return done(release(m, held.seat), [], held.seat);
    }
    case "ready": {
      const held = seatOf(m, e.playerId);
      if (!held) return refuse(m, "not_seated", "You have no seat at this table");
      if (m.stage !== "betting") return refuse(m, "betting_closed", "Bets are closed for this round");
      return done(withSeat(m, held.seat, { ready: true }), [], held.seat);
    }
    case "join": {
      // A player who comes back on a new connection finds their seat again.
      const held = seatOf(m, e.playerId);
      return done(held ? withSeat(m, held.seat, { sessionId: e.sessionId, connected: true }) : m);
    }
    case "drop": {
      // The connection may come back for the grace period; a seat is kept meanwhile (and stood for when its turn comes).
      const graces = [
        ...withoutGrace(m, e.sessionId).graces,
        { sessionId: e.sessionId, playerId: e.playerId, until: now + settings.reconnectSeconds * 1000 },
      ];
      const held = seatOf(m, e.playerId);
      if (!held || held.sessionId !== e.sessionId) return done({ ...m, graces });
      return done({ ...withSeat(m, held.seat, { connected: false }), graces });
    }
    case "reconnect": {
      const m2 = withoutGrace(m, e.sessionId);
      const held = seatOf(m2, e.playerId);
      if (!held || held.sessionId !== e.sessionId) return done(m2);
      return done(withSeat(m2, held.seat, { connected: true }));
    }
    case "leave": {
      const m2 = withoutGrace(m, e.sessionId);
      const held = seatOf(m2, e.playerId);
      if (!held || held.sessionId !== e.sessionId) return done(m2);
      return done(release(withSeat(m2, held.seat, { connected: false }), held.seat));
    }

    case "bet": {
      const held = seatOf(m, e.playerId);
      if (!held || held.leaving) return refuse(m, "not_seated", "Take a seat to bet");
      if (!m.roundId || m.stage !== "betting") return refuse(m, "betting_closed", "Bets are closed for this round");
      const effect: MachineEffect = {
        type: "placeBet",
        playerId: e.playerId,
        requestId: e.requestId,
        roundId: m.roundId,
        seat: held.seat,
        amount: e.amount,
      };
      return done({ ...m, pendingBets: m.pendingBets + 1 }, [effect], held.seat);
    }
    case "betPlaced": {
      const pending = { ...m, pendingBets: Math.max(0, m.pendingBets - 1) };
      const held = seatOf(pending, e.playerId);
      // A bet for an earlier window (answered late) changes nothing on the table.
      if (!held || e.roundId !== m.roundId || m.stage === "stopped") return done(pending);
      return done(withSeat(pending, held.seat, { bet: e.amount }));
    }
    case "betFailed":
      return done({ ...m, pendingBets: Math.max(0, m.pendingBets - 1) });

    case "act": {
      const held = seatOf(m, e.playerId);
      if (!held) return refuse(m, "not_seated", "You have no seat at this table");
      if (m.stage !== "playing") return refuse(m, "no_turn", "No seat is to act now");
      if (m.recording) return { machine: m, effects: [], busy: true };
      const engine = m.engine;
      const toAct = engine ? seatToAct(engine) : null;
      if (!engine || !m.roundId || toAct === null) return refuse(m, "no_turn", "No seat is to act now");
      if (toAct !== held.seat || !held.inRound) return refuse(m, "not_your_turn", `It is seat ${toAct}'s turn`);
      let stake: number;
      try {
        stake = act(engine, held.seat, e.action).stake;
      } catch (error) {
        if (error instanceof GameRuleError) return refuse(m, error.code, error.message);
        throw error;
      }
      const effect: MachineEffect = {
        type: "recordAct",
        playerId: e.playerId,
        requestId: e.requestId,
        roundId: m.roundId,
        seat: held.seat,
        index: m.actions.length,
        action: e.action,
        stake,
      };
      return done({ ...m, recording: true, pendingAct: { index: effect.index, seat: held.seat, action: e.action } }, [effect], held.seat);
    }
    case "actRecorded": {
      const m2 = { ...m, recording: false, pendingAct: null };
      const pending = m.pendingAct;
      // A repeated request was answered before: its action is already on the table.
      if (e.replayed || !pending || e.index !== m.actions.length || pending.index !== e.index || !m.engine) return done(m2);
      return done(applyAction(m2, { seat: pending.seat, action: pending.action }));
    }
    case "actFailed":
      return done({ ...m, recording: false, pendingAct: null });

    case "previousLoaded":
      return done({ ...m, stage: "idle", previousShoe: e.previousShoe ?? m.previousShoe });
    case "shoeOpened":
      return done({ ...m, stage: "idle", shoe: e.shoe, engine: null, shoeLost: false }, [{ type: "holdLease", shoeId: e.shoe.id }]);
    case "shoeBusy":
      return done({ ...m, stage: "backoff", phase: "waiting", retryAt: now + Math.ceil(settings.leaseMs / 2) });
    case "shoeStale":
      return done({ ...m, stage: "recovering" }, [{ type: "recoverStale", shoeId: e.shoeId }]);
    case "staleRecovered":
      return done({ ...m, stage: "idle", previousShoe: e.previousShoe ?? m.previousShoe });
    case "roundOpened":
      return done({
        ...clearRound(m),
        stage: "betting",
        phase: "betting",
        roundId: e.roundId,
        actions: [],
        bets: [],
        deadline: now + settings.bettingMs,
      });
    case "dealt":
      return dealt(m, e.bets, e.seats);
    case "defaultRecorded": {
      const m2 = { ...m, recording: false };
      if (!e.ok) return fail(m2, `round ${m.roundId} record moved on`);
      if (e.index !== m.actions.length || !m.engine) return done(m2);
      const fallback = defaultAction(m.engine);
      if (!fallback) return done(m2);
      return done(applyAction(m2, fallback));
    }
    case "roundClosed":
      return done({ ...m, stage: "settled", phase: "settled", roundId: null, deadline: now + settings.settledMs });
    case "shoeFinished":
      return done({
        ...m,
        stage: "idle",
        previousShoe: m.shoe ? { id: m.shoe.id, serverSeed: m.shoe.serverSeed, serverSeedHash: m.shoe.serverSeedHash } : m.previousShoe,
        shoe: null,
        engine: null,
        deadline: null,
      });
    case "abandoned":
      return done({
        ...clearRound(m),
        stage: "backoff",
        phase: "waiting",
        retryAt: now + FAILURE_RETRY_MS,
        shoe: null,
        engine: null,
        roundId: null,
        actions: [],
        bets: [],
        roundLive: false,
        deadline: null,
        turnIndex: null,
        recording: false,
        pendingAct: null,
        shoeLost: false,
        previousShoe: e.previousShoe ?? m.previousShoe,
      });
    case "leaseLost":
      if (!m.shoe || m.shoe.id !== e.shoeId) return done(m);
      // Another process took the shoe over (this one stalled past its lease): stop dealing from it.
      return done({ ...m, shoeLost: true });
    case "failed":
      return fail(m, e.reason);
  }
}

/** Applies a recorded action to the round (its turn timer ends with it). */
function applyAction(m: TableMachine, entry: RecordedAction): TableMachine {
  return { ...m, engine: act(m.engine!, entry.seat, entry.action).state, actions: [...m.actions, entry], turnIndex: null, deadline: null };
}

function dealt(m: TableMachine, bets: DealtBet[], seats: SeatSeed[] | null): Step {
  if (bets.length === 0) {
    // Nobody bet: the window opens again (the same round), once someone is seated.
    return { machine: { ...m, stage: "idle", phase: "waiting", deadline: null, seats: m.seats.filter((s) => !s.leaving) }, effects: [] };
  }
  const shoe = m.shoe!;
  const withSeats = shoe.seats ? shoe : { ...shoe, seats };
  let engine: TableState;
  try {
    const previous = m.engine ? nextRound(m.engine) : newShoe(withSeats.serverSeed, withSeats.seats ?? [], withSeats.rounding);
    engine = deal(
      previous,
      bets.map((b) => ({ seat: b.seat, amount: b.amount })),
    );
  } catch (error) {
    return fail(m, `the deal failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const seated = m.seats.map((s) => {
    const bet = bets.find((b) => b.seat === s.seat && b.playerId === s.playerId);
    return bet ? { ...s, inRound: true, bet: bet.amount } : s;
  });
  return {
    machine: { ...m, stage: "playing", shoe: withSeats, engine, bets, seats: seated, roundLive: true, deadline: null, turnIndex: null },
    effects: [],
  };
}

/** A failure: the round is settled from its record by the restart rule and the next round starts a new shoe. */
function fail(m: TableMachine, reason: string): Step {
  return {
    machine: { ...m, stage: "abandoning", deadline: null, turnIndex: null },
    effects: [{ type: "releaseLease" }, { type: "abandon", shoeId: m.shoe?.id ?? null, reason }],
  };
}

/** Moves the table on as far as it goes without waiting: what time and seats allow now. */
function drive(
  start: TableMachine,
  now: number,
  settings: MachineSettings,
  effects: MachineEffect[],
): { machine: TableMachine; effects: MachineEffect[] } {
  let m = start;
  // A dropped connection whose grace has run out is gone: its seat is given up, and the room ends the
  // wait for it (the connection then leaves for good).
  for (const grace of m.graces) {
    if (grace.until > now || m.stage === "stopped") continue;
    effects.push({ type: "endGrace", sessionId: grace.sessionId });
    m = withoutGrace(m, grace.sessionId);
    const held = seatOf(m, grace.playerId);
    if (held && held.sessionId === grace.sessionId && !held.connected) m = release(m, held.seat);
  }
  for (let guard = 0; guard < 100; guard++) {
    const next = advance(m, now, settings);
    if (!next) break;
    m = next.machine;
    effects.push(...next.effects);
  }
  return { machine: m, effects };
}

/** One move the table makes on its own, or null when it waits. */
function advance(m: TableMachine, now: number, settings: MachineSettings): Step | null {
  switch (m.stage) {
    case "idle":
      if (m.seats.length === 0) return m.phase === "waiting" ? null : { machine: { ...m, phase: "waiting" }, effects: [] };
      if (m.shoeLost) return fail(m, "the table's shoe was taken over by another process");
      if (!m.shoe) return { machine: { ...m, stage: "opening" }, effects: [{ type: "openShoe" }] };
      return {
        machine: { ...m, stage: "openingRound" },
        effects: [{ type: "openRound", shoeId: m.shoe.id, round: (m.engine?.round ?? 0) + 1 }],
      };
    case "backoff":
      return m.retryAt !== null && now >= m.retryAt ? { machine: { ...m, stage: "idle", retryAt: null }, effects: [] } : null;
    case "betting":
      // Everyone seated has bet and is ready, or nobody is seated any more (the table may then close).
      if (now >= m.deadline! || allReady(m) || m.seats.length === 0) return { machine: { ...m, stage: "closing" }, effects: [] };
      return null;
    case "closing": {
      if (m.pendingBets > 0) return null;
      const seated = m.seats.filter((s) => !s.leaving).map((s) => ({ seat: s.seat, playerId: s.playerId }));
      return { machine: { ...m, stage: "dealing" }, effects: [{ type: "deal", roundId: m.roundId!, shoeId: m.shoe!.id, seated }] };
    }
    case "playing":
      return playing(m, now, settings);
    case "settled":
      if (now < m.deadline!) return null;
      return endOfRound(m);
    default:
      return null;
  }
}

function playing(m: TableMachine, now: number, settings: MachineSettings): Step | null {
  if (m.recording) return null;
  if (m.shoeLost) return fail(m, "the table's shoe was taken over by another process");
  const engine = m.engine!;
  const toAct = seatToAct(engine);
  if (toAct === null) {
    // The dealer plays (unless the round is settled already) and every seat is settled.
    const settled = engine.phase === "dealer" ? dealerTurn(engine) : engine;
    const seats = m.bets.map((b) => ({
      betId: b.betId,
      playerId: b.playerId,
      seat: b.seat,
      settlement: seatSettlement(settled, b.seat, m.actions, m.shoe!.rounding),
    }));
    return {
      machine: { ...m, engine: settled, stage: "settling", deadline: null, turnIndex: null },
      effects: [{ type: "settle", roundId: m.roundId!, shoeHash: m.shoe!.serverSeedHash, round: settled.round, seats }],
    };
  }
  const index = m.actions.length;
  if (present(m, toAct)) {
    if (m.turnIndex !== index) return { machine: { ...m, turnIndex: index, deadline: now + settings.turnMs }, effects: [] };
    if (now < m.deadline!) return null;
  }
  // Stood for: the timer ran out, or the player is gone or gave the seat up.
  const fallback = defaultAction(engine)!;
  return {
    machine: { ...m, recording: true, turnIndex: null, deadline: null },
    effects: [{ type: "recordDefault", roundId: m.roundId!, index, entry: fallback }],
  };
}

function endOfRound(m: TableMachine): Step {
  // Seats given up during the round are freed; everyone plays the next round.
  const cleared = { ...clearRound(m), roundLive: false, deadline: null };
  if (m.engine && shoeFinished(m.engine))
    return { machine: { ...cleared, stage: "finishing" }, effects: [{ type: "releaseLease" }, { type: "finishShoe", shoeId: m.shoe!.id }] };
  return { machine: { ...cleared, stage: "idle" }, effects: [] };
}

/** What a settled round records for one seat (its game session's outcome and actions). */
export function seatSettlement(
  state: TableState,
  seatNo: number,
  actions: readonly RecordedAction[],
  rounding: RoundingRule,
): SeatSettlement {
  const seat = state.seats.find((s) => s.seat === seatNo);
  if (!seat || seat.payout === null) throw new Error(`seat ${seatNo} is not settled`);
  return {
    payout: seat.payout,
    staked: seat.staked,
    actions: actions.filter((a) => a.seat === seatNo).map((a) => a.action),
    outcome: {
      hands: seat.hands.map((h) => ({
        cards: h.cards,
        stake: h.stake,
        doubled: h.doubled,
        split: h.split,
        result: h.result,
        payout: h.payout,
      })),
      insurance: seat.insurance,
      dealer: state.dealer,
      dealerBlackjack: state.dealerBlackjack,
      rounding,
    },
  };
}

/** The table as every client sees it (the room adds `serverTime` from its clock when it sends it). */
export function snapshotOf(
  m: TableMachine,
  table: { tableId: string; instanceId: string | null; watchers: number },
  settings: MachineSettings,
): Omit<TableSnapshot, "serverTime"> {
  const engine = m.engine;
  const view = engine && m.roundLive ? tableView(engine) : null;
  const players: TableSeatPlayer[] = m.seats.map((s) => ({
    seat: s.seat,
    playerId: s.playerId,
    username: s.username,
    avatarUrl: s.avatarUrl,
    face: s.face,
    ready: s.ready,
    connected: s.connected,
    bet: s.bet,
    inRound: s.inRound,
    leaving: s.leaving,
  }));
  return {
    tableId: table.tableId,
    instanceId: table.instanceId,
    phase: view && engine ? engine.phase : m.phase,
    deadline: m.deadline,
    toAct: engine && view ? seatToAct(engine) : null,
    bettingMs: settings.bettingMs,
    turnMs: settings.turnMs,
    players,
    watchers: table.watchers,
    view,
    shoe: m.shoe
      ? { id: m.shoe.id, serverSeedHash: m.shoe.serverSeedHash, seats: m.shoe.seats, rounds: engine?.round ?? 0, rounding: m.shoe.rounding }
      : null,
    previousShoe: m.previousShoe,
  };
}

/** The table's seats nobody holds (a public table's `freeSeat` counts the room's seat reservations too). */
export const seatsLeft = (m: TableMachine): number => TABLE_SEATS_COUNT - m.seats.length;

// ── The restart rule ──────────────────────────────────────────────────────────────────────────────

/** A round left open, as the store read it with its bets. */
export interface OpenRound extends Omit<StoredRound, "bets"> {
  bets: { betId: string; seat: number; amount: number; status: "active" | "settled" | "refunded" }[];
}

/** What the restart rule does with a shoe's open round. */
export type RestartPlan =
  | { kind: "none" }
  /** Never dealt: void, every active bet refunded. */
  | { kind: "void"; roundId: string; refund: string[] }
  /** Dealt: the seats still to act stood for (these actions appended to the record), the dealer plays, every active bet settled. */
  | {
      kind: "settle";
      roundId: string;
      recorded: number;
      added: RecordedAction[];
      settle: { betId: string; settlement: SeatSettlement }[];
    };

/**
 * The restart rule, decided from the shoe's record alone: a round still in its betting window is void;
 * a dealt round is played out by the default action for every seat still to act (the same default the
 * machine plays when a turn runs out) and settled with the same settlement records.
 */
export function restartPlan(shoe: MachineShoe, rounds: readonly OpenRound[]): RestartPlan {
  const open = rounds.find((r) => r.phase === "betting" || r.phase === "playing");
  if (!open) return { kind: "none" };
  const active = open.bets.filter((b) => b.status === "active");
  if (open.phase === "betting") return { kind: "void", roundId: open.id, refund: active.map((b) => b.betId) };
  const { state, added } = settleByDefault(replayShoe(shoe, rounds));
  const actions = [...open.actions, ...added];
  return {
    kind: "settle",
    roundId: open.id,
    recorded: open.actions.length,
    added,
    settle: active.map((b) => ({ betId: b.betId, settlement: seatSettlement(state, b.seat, actions, shoe.rounding) })),
  };
}
