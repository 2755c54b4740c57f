import { crashMultiplierAt, crashReachedAtMs, type CrashRoomBet, type CrashRoomSnapshot, type RoundingRule } from "@casino/common";

/**
 * The shared crash room's rounds as a pure machine: `crashStep(state, event, now)` gives the next state
 * and the effects the room carries out (open a round, call the ledger, start the run, bust, wake me at
 * T...). It reads no clock, sets no timer and does no I/O: the room (crash-room.ts) feeds it the time of
 * its clock with each event, carries out its effects and feeds their results back as events. Whether a
 * cash-out is in time, when betting closes, when an automatic cash-out fires and when the round busts
 * are decided here, from `now`, the round's crash point and the time since the run started.
 */

/** The room's timing (CrashSettings of config.ts). */
export interface CrashTiming {
  bettingMs: number;
  bustedMs: number;
  tickMs: number;
  /** m(t) = e^(curveRate · t), t in milliseconds. */
  curveRate: number;
  leaseMs: number;
}

/** The round the room plays: what the machine needs of the store's opened round. */
export interface CrashRound {
  roundId: string;
  gameNumber: number;
  /** Secret until the bust. */
  gameHash: string;
  /** Hundredths. */
  crashPoint: number;
  rounding: RoundingRule;
  terminatingHash: string;
}

/**
 * Where the machine is. The public phase (`view.phase`) is coarser: closing and starting still show
 * betting, busting and settling still show running.
 */
export type CrashStep =
  /** The chain and the history are being loaded (the room was just created). */
  | "loading"
  /** No round: the next opens at `resumeAt` once someone is in the room. */
  | "idle"
  /** The store is opening the scope's next round. */
  | "opening"
  /** A round left by a stopped process is being settled by the restart rule before the next opens. */
  | "recovering"
  | "betting"
  /** Betting is closed: bets already sent to the ledger finish first. */
  | "closing"
  /** The store is moving the round to running. */
  | "starting"
  | "running"
  /** The curve has reached the crash point: cash-outs already sent to the ledger finish first. */
  | "busting"
  /** The store is busting the round. */
  | "settling"
  /** The bust was refused (another process settled the round): the bets are being read back. */
  | "reloading"
  /** Stopped with a round open: the restart rule is settling it. */
  | "stopping"
  | "stopped";

/** A bet of the current round. Multipliers in hundredths. */
export interface MachineBet {
  playerId: string;
  username: string;
  amount: number;
  autoCashOut: number | null;
  status: CrashRoomBet["status"];
  cashedOutAt: number;
  payout: number;
  /** The cash-out sent to the ledger (in flight while the bet is still active); kept to answer a repeat. */
  cashOut: { requestId: string; by: "player" | "auto" } | null;
  /** The automatic cash-out has been sent once: after a refusal it is sent again on the next tick only. */
  autoSent: boolean;
}

/** A bet sent to the ledger and not yet answered. */
interface PlacingBet {
  requestId: string;
  playerId: string;
  username: string;
  amount: number;
  autoCashOut: number | null;
}

/** What everyone in the room sees of the round (the room's schema state, bets and history aside). */
export type CrashView = Pick<
  CrashRoomSnapshot,
  "phase" | "roundId" | "gameNumber" | "bettingEndsAt" | "runStartedAt" | "elapsedMs" | "multiplier" | "crashPoint" | "gameHash"
>;

export interface CrashMachineState {
  timing: CrashTiming;
  step: CrashStep;
  stopped: boolean;
  /** Connections in the room: a round opens only when there is someone to play it. */
  players: number;
  autoDispose: boolean;
  round: CrashRound | null;
  bettingEndsAt: number;
  runStartedAt: number;
  /** When the curve reaches the crash point. */
  bustAt: number;
  nextTickAt: number;
  /** When the next round may open (after a bust's pause, a busy scope's wait, a failure's back-off). */
  resumeAt: number;
  /** The wake-up the room has been asked for. */
  wakeAt: number | null;
  placing: PlacingBet[];
  /** In the order they were placed. */
  bets: MachineBet[];
  view: CrashView;
}

export type RefusalCode = "betting_closed" | "not_running" | "no_bet" | "already_cashed_out";

export type CrashEvent =
  | { type: "start" }
  | { type: "stop" }
  /** The wake-up asked for has come (or any moment: the machine catches up with `now`). */
  | { type: "time" }
  | { type: "players"; count: number }
  | { type: "historyLoaded" }
  | { type: "opened"; round: CrashRound }
  | { type: "busy" }
  | { type: "stale"; roundId: string }
  | { type: "staleRecovered" }
  /** A store step of the round failed (open, stale recovery, start, bust, reload). */
  | { type: "failed"; error: unknown }
  | { type: "betRequested"; playerId: string; username: string; requestId: string; amount: number; autoCashOut: number | null }
  | { type: "betPlaced"; roundId: string; requestId: string; answer: { roundId: string; balance: number } }
  | { type: "betFailed"; roundId: string; requestId: string }
  | { type: "runStarted"; roundId: string; ok: boolean }
  | { type: "cashOutRequested"; playerId: string; requestId: string }
  | {
      type: "cashOutSettled";
      roundId: string;
      playerId: string;
      requestId: string;
      answer: { cashedOutAt: number; payout: number; balance: number };
    }
  | { type: "cashOutFailed"; roundId: string; playerId: string; requestId: string }
  | { type: "bustDone"; roundId: string; ok: boolean }
  | {
      type: "reloaded";
      roundId: string;
      bets: { playerId: string; status: CrashRoomBet["status"]; cashedOutAt: number | null; payout: number }[];
    }
  /** The restart rule has settled the round open at the stop (or failed to: the sweep will). */
  | { type: "recovered" };

export type CrashEffect =
  | { kind: "loadHistory" }
  | { kind: "autoDispose"; on: boolean }
  | { kind: "openRound" }
  | { kind: "recoverStale"; roundId: string }
  /** Keep renewing this round's lease in the database, or stop (null). */
  | { kind: "lease"; roundId: string | null }
  | { kind: "refuse"; requestId: string; code: RefusalCode; message: string }
  | { kind: "placeBet"; playerId: string; requestId: string; roundId: string; amount: number; autoCashOut: number | null }
  | { kind: "betAccepted"; playerId: string; amount: number; balance: number }
  | { kind: "startRun"; roundId: string }
  | { kind: "cashOut"; playerId: string; requestId: string; roundId: string; at: number; by: "player" | "auto" }
  /** A repeated cash-out request: answered with the first one's answer. */
  | { kind: "replay"; requestId: string }
  | { kind: "cashedOut"; playerId: string; payout: number; balance: number }
  | { kind: "bust"; roundId: string }
  /** The bust is done: the game's hash is public; each bet's result, in the order placed. */
  | {
      kind: "revealed";
      round: CrashRound;
      /** each bet of the round: `cashedOutAt` in hundredths, null for a bet lost at the bust */
      bets: { playerId: string; amount: number; payout: number; cashedOutAt: number | null }[];
    }
  | { kind: "reload"; roundId: string }
  /** Settle the round by the restart rule now (the room stopped with it open). */
  | { kind: "recover"; roundId: string }
  | { kind: "roundFailed"; error: unknown }
  /** Send a `time` event at `at` (replacing any wake-up asked for before); null: none. */
  | { kind: "wake"; at: number | null }
  | { kind: "stopped" };

export interface CrashStepResult {
  state: CrashMachineState;
  effects: CrashEffect[];
}

/** After a failed step of the round, the next round is tried after this long. */
export const CRASH_RETRY_MS = 1_000;

export const TOO_LATE = "Too late: the round has busted";
export const NOT_STARTED = "The round has not started yet";
export const BETS_CLOSED = "Bets are closed for this round";
export const ALREADY_CASHED_OUT = "You have already cashed out";
export const NO_BET = "You have no bet in this round";

export function initialCrashState(timing: CrashTiming): CrashMachineState {
  return {
    timing,
    step: "loading",
    stopped: false,
    players: 0,
    autoDispose: false,
    round: null,
    bettingEndsAt: 0,
    runStartedAt: 0,
    bustAt: 0,
    nextTickAt: 0,
    resumeAt: 0,
    wakeAt: null,
    placing: [],
    bets: [],
    view: {
      phase: "waiting",
      roundId: "",
      gameNumber: 0,
      bettingEndsAt: 0,
      runStartedAt: 0,
      elapsedMs: 0,
      multiplier: 100,
      crashPoint: 0,
      gameHash: "",
    },
  };
}

/** The automatic target of a bet message (a multiplier with two decimals) in hundredths. */
export const autoCashOutHundredths = (autoCashOut: number | null): number | null =>
  autoCashOut === null ? null : Math.round(autoCashOut * 100);

/**
 * The machine's one step: the state after `event` at `now`, and what the room must do. Deadlines that
 * fell before `now` are reached first (a late timer changes nothing); a deadline at `now` itself is
 * reached by the `time` event, after a player's message of the same millisecond.
 */
export function crashStep(state: CrashMachineState, event: CrashEvent, now: number): CrashStepResult {
  const s = copyOf(state);
  const fx: CrashEffect[] = [];
  reachTime(s, now, fx, event.type === "time");
  handle(s, event, now, fx);
  finishIfStopped(s, fx);
  if (s.autoDispose !== state.autoDispose) fx.push({ kind: "autoDispose", on: s.autoDispose });
  s.wakeAt = nextWake(s, now);
  if (s.wakeAt !== state.wakeAt) fx.push({ kind: "wake", at: s.wakeAt });
  return { state: s, effects: fx };
}

/** A copy the step may change: the caller's state is left as it was (rounds and cash-outs are replaced, never changed). */
const copyOf = (state: CrashMachineState): CrashMachineState => ({
  ...state,
  view: { ...state.view },
  placing: [...state.placing],
  bets: state.bets.map((b) => ({ ...b })),
});

/** The multiplier of the run at `now`, in hundredths. */
export function multiplierOf(state: CrashMachineState, now: number): number {
  return crashMultiplierAt(now - state.runStartedAt, state.timing.curveRate);
}

// ── Events ──────────────────────────────────────────────────────────────────────────────────────────

function handle(s: CrashMachineState, e: CrashEvent, now: number, fx: CrashEffect[]): void {
  switch (e.type) {
    case "start":
      fx.push({ kind: "loadHistory" });
      return;
    case "stop":
      s.stopped = true;
      return;
    case "time":
      return;
    case "players":
      s.players = e.count;
      tryOpen(s, now, fx);
      return;
    case "historyLoaded":
      if (s.step !== "loading") return;
      s.step = "idle";
      tryOpen(s, now, fx);
      return;
    case "opened": {
      if (s.step !== "opening") return;
      const round = e.round;
      s.round = round;
      s.bets = [];
      s.placing = [];
      s.step = "betting";
      s.bettingEndsAt = now + s.timing.bettingMs;
      s.runStartedAt = 0;
      s.view = {
        phase: "betting",
        roundId: round.roundId,
        gameNumber: round.gameNumber,
        bettingEndsAt: s.bettingEndsAt,
        runStartedAt: 0,
        elapsedMs: 0,
        multiplier: 100,
        crashPoint: 0,
        gameHash: "",
      };
      fx.push({ kind: "lease", roundId: round.roundId });
      return;
    }
    case "busy":
      if (s.step !== "opening") return;
      // Another process runs this scope's round: look again in half a lease.
      s.step = "idle";
      s.view.phase = "waiting";
      s.resumeAt = now + Math.ceil(s.timing.leaseMs / 2);
      return;
    case "stale":
      if (s.step !== "opening") return;
      s.step = "recovering";
      fx.push({ kind: "recoverStale", roundId: e.roundId });
      return;
    case "staleRecovered":
      if (s.step !== "recovering") return;
      s.step = "idle";
      s.resumeAt = now;
      tryOpen(s, now, fx);
      return;
    case "failed":
      if (!s.stopped) {
        fx.push({ kind: "roundFailed", error: e.error });
        endRound(s, now, CRASH_RETRY_MS, fx);
      } else if (s.step !== "stopping") {
        // Stopping: the round (if one is open) is left for the restart rule.
        s.step = "idle";
      }
      return;
    case "betRequested":
      return requestBet(s, e, fx);
    case "betPlaced": {
      if (!isCurrent(s, e.roundId)) return;
      const sent = s.placing.find((p) => p.requestId === e.requestId);
      s.placing = s.placing.filter((p) => p.requestId !== e.requestId);
      // A repeated request id of another round answers that round's bet: this round has no bet of it.
      if (sent && e.answer.roundId === e.roundId && !s.bets.some((b) => b.playerId === sent.playerId)) {
        s.bets.push({
          playerId: sent.playerId,
          username: sent.username,
          amount: sent.amount,
          autoCashOut: sent.autoCashOut,
          status: "active",
          cashedOutAt: 0,
          payout: 0,
          cashOut: null,
          autoSent: false,
        });
        fx.push({ kind: "betAccepted", playerId: sent.playerId, amount: sent.amount, balance: e.answer.balance });
      }
      tryStart(s, fx);
      return;
    }
    case "betFailed":
      if (!isCurrent(s, e.roundId)) return;
      s.placing = s.placing.filter((p) => p.requestId !== e.requestId);
      tryStart(s, fx);
      return;
    case "runStarted":
      if (s.step !== "starting" || !isCurrent(s, e.roundId)) return;
      if (!e.ok) return endRound(s, now, s.timing.bustedMs, fx);
      s.step = "running";
      s.runStartedAt = now;
      s.bustAt = now + crashReachedAtMs(s.round!.crashPoint, s.timing.curveRate);
      s.nextTickAt = now;
      s.view.phase = "running";
      s.view.runStartedAt = now;
      if (!s.stopped) reachRun(s, now, fx, true);
      return;
    case "cashOutRequested":
      return requestCashOut(s, e, now, fx);
    case "cashOutSettled": {
      if (!isCurrent(s, e.roundId)) return;
      const bet = s.bets.find((b) => b.playerId === e.playerId);
      if (!bet) return;
      Object.assign(bet, { status: "cashed_out", cashedOutAt: e.answer.cashedOutAt, payout: e.answer.payout });
      fx.push({ kind: "cashedOut", playerId: e.playerId, payout: e.answer.payout, balance: e.answer.balance });
      tryBust(s, fx);
      return;
    }
    case "cashOutFailed": {
      if (!isCurrent(s, e.roundId)) return;
      // Refused by the ledger's guard: the bet stays with the round and is settled by the bust.
      const bet = s.bets.find((b) => b.playerId === e.playerId);
      if (bet?.cashOut?.requestId === e.requestId) bet.cashOut = null;
      tryBust(s, fx);
      return;
    }
    case "bustDone": {
      if (s.step !== "settling" || !isCurrent(s, e.roundId)) return;
      const round = s.round!;
      if (!e.ok) {
        // Another process settled this round (our lease lapsed): show what the database says.
        s.step = "reloading";
        fx.push({ kind: "reload", roundId: round.roundId });
        return;
      }
      for (const bet of s.bets) if (bet.status === "active") bet.status = "lost";
      Object.assign(s.view, { phase: "busted", multiplier: round.crashPoint, crashPoint: round.crashPoint, gameHash: round.gameHash });
      fx.push({
        kind: "revealed",
        round,
        bets: s.bets.map((b) => {
          const cashedOut = b.status === "cashed_out";
          return {
            playerId: b.playerId,
            amount: b.amount,
            payout: cashedOut ? b.payout : 0,
            cashedOutAt: cashedOut ? b.cashedOutAt : null,
          };
        }),
      });
      return endRound(s, now, s.timing.bustedMs, fx);
    }
    case "reloaded":
      if (s.step !== "reloading" || !isCurrent(s, e.roundId)) return;
      for (const stored of e.bets) {
        const bet = s.bets.find((b) => b.playerId === stored.playerId);
        if (bet) Object.assign(bet, { status: stored.status, cashedOutAt: stored.cashedOutAt ?? 0, payout: stored.payout });
      }
      return endRound(s, now, s.timing.bustedMs, fx);
    case "recovered":
      if (s.step !== "stopping") return;
      s.round = null;
      s.step = "stopped";
      fx.push({ kind: "stopped" });
      return;
  }
}

function requestBet(s: CrashMachineState, e: Extract<CrashEvent, { type: "betRequested" }>, fx: CrashEffect[]): void {
  if (!s.round || s.step !== "betting") {
    fx.push({ kind: "refuse", requestId: e.requestId, code: "betting_closed", message: BETS_CLOSED });
    return;
  }
  const autoCashOut = autoCashOutHundredths(e.autoCashOut);
  s.placing.push({ requestId: e.requestId, playerId: e.playerId, username: e.username, amount: e.amount, autoCashOut });
  fx.push({ kind: "placeBet", playerId: e.playerId, requestId: e.requestId, roundId: s.round.roundId, amount: e.amount, autoCashOut });
}

function requestCashOut(s: CrashMachineState, e: Extract<CrashEvent, { type: "cashOutRequested" }>, now: number, fx: CrashEffect[]): void {
  const refuse = (code: RefusalCode, message: string) => void fx.push({ kind: "refuse", requestId: e.requestId, code, message });
  const bet = s.bets.find((b) => b.playerId === e.playerId);
  // A repeated request (a retry, a message queued during a reconnect) gets the first one's answer.
  if (bet?.cashOut?.requestId === e.requestId) return void fx.push({ kind: "replay", requestId: e.requestId });
  // A second cash-out is answered as such even when it is handled after the bust (a player's messages
  // run in order, so it waits for the first one).
  if (bet && (bet.cashOut || bet.status === "cashed_out")) return refuse("already_cashed_out", ALREADY_CASHED_OUT);
  if (!s.round || s.step !== "running") {
    const early = s.step === "betting" || s.step === "closing" || s.step === "starting";
    return refuse("not_running", early ? NOT_STARTED : TOO_LATE);
  }
  if (!bet) return refuse("no_bet", NO_BET);
  if (bet.status !== "active") return refuse("already_cashed_out", ALREADY_CASHED_OUT);
  const m = multiplierOf(s, now);
  // The curve has passed the crash point: the round is over, whether or not the bust has been reached.
  if (m > s.round.crashPoint) return refuse("not_running", TOO_LATE);
  const at = bet.autoCashOut === null ? m : Math.min(m, bet.autoCashOut);
  sendCashOut(s, bet, at, "player", e.requestId, fx);
}

function sendCashOut(s: CrashMachineState, bet: MachineBet, at: number, by: "player" | "auto", requestId: string, fx: CrashEffect[]) {
  bet.cashOut = { requestId, by };
  fx.push({ kind: "cashOut", playerId: bet.playerId, requestId, roundId: s.round!.roundId, at, by });
}

/** The request id of a bet's automatic cash-out: one per bet and round, so the ledger pays it once. */
export const autoCashOutRequestId = (roundId: string, playerId: string) => `server#crash-auto:${roundId}:${playerId}`;

// ── Time ────────────────────────────────────────────────────────────────────────────────────────────

/** Reaches every deadline before `now` (and at `now` too when `inclusive`: the wake-up itself). */
function reachTime(s: CrashMachineState, now: number, fx: CrashEffect[], inclusive: boolean): void {
  if (s.stopped) return;
  const due = (t: number) => (inclusive ? t <= now : t < now);
  if (s.step === "idle" && due(s.resumeAt)) tryOpen(s, now, fx);
  if (s.step === "betting" && due(s.bettingEndsAt)) {
    s.step = "closing";
    tryStart(s, fx);
  }
  if (s.step === "running") reachRun(s, now, fx, inclusive);
}

/** The run at `now`: the tick, the automatic cash-outs the curve has reached, the bust. */
function reachRun(s: CrashMachineState, now: number, fx: CrashEffect[], inclusive: boolean): void {
  const round = s.round!;
  const due = (t: number) => (inclusive ? t <= now : t < now);
  const tick = inclusive && now >= s.nextTickAt;
  for (const bet of s.bets) {
    if (bet.status !== "active" || bet.cashOut || bet.autoCashOut === null || bet.autoCashOut > round.crashPoint) continue;
    if (!due(autoAt(s, bet.autoCashOut)) || (bet.autoSent && !tick)) continue;
    bet.autoSent = true;
    sendCashOut(s, bet, bet.autoCashOut, "auto", autoCashOutRequestId(round.roundId, bet.playerId), fx);
  }
  if (due(s.bustAt)) {
    s.step = "busting";
    tryBust(s, fx);
    return;
  }
  if (tick) {
    s.view.elapsedMs = now - s.runStartedAt;
    s.view.multiplier = multiplierOf(s, now);
    s.nextTickAt = now + s.timing.tickMs;
  }
}

/** When the run reaches a target (hundredths). */
const autoAt = (s: CrashMachineState, target: number) => s.runStartedAt + crashReachedAtMs(target, s.timing.curveRate);

function nextWake(s: CrashMachineState, now: number): number | null {
  if (s.stopped) return null;
  switch (s.step) {
    case "idle":
      // The end of a pause is a wake-up even with nobody here: the room then lets Colyseus close it.
      if (s.resumeAt > now) return s.resumeAt;
      return s.players > 0 ? now : null;
    case "betting":
      return s.bettingEndsAt;
    case "running": {
      let at = Math.min(s.nextTickAt, s.bustAt);
      for (const bet of s.bets) {
        if (bet.status !== "active" || bet.cashOut || bet.autoSent || bet.autoCashOut === null) continue;
        if (bet.autoCashOut <= s.round!.crashPoint) at = Math.min(at, autoAt(s, bet.autoCashOut));
      }
      return Math.max(now, at);
    }
    default:
      return null;
  }
}

// ── Phase changes ───────────────────────────────────────────────────────────────────────────────────

function tryOpen(s: CrashMachineState, now: number, fx: CrashEffect[]): void {
  if (s.stopped || s.step !== "idle" || now < s.resumeAt) return;
  // Nobody here: between rounds, Colyseus may close the room (it also waits for seats being taken).
  if (s.players === 0) {
    s.autoDispose = true;
    return;
  }
  s.autoDispose = false;
  s.step = "opening";
  fx.push({ kind: "openRound" });
}

/** Betting closed: once no bet is in flight, the run starts (not when stopped: the restart rule takes the round). */
function tryStart(s: CrashMachineState, fx: CrashEffect[]): void {
  if (s.step !== "closing" || s.placing.length > 0 || s.stopped) return;
  s.step = "starting";
  fx.push({ kind: "startRun", roundId: s.round!.roundId });
}

/** The bust was reached: once no cash-out is in flight, the store busts the round. */
function tryBust(s: CrashMachineState, fx: CrashEffect[]): void {
  if (s.step !== "busting" || s.bets.some(inFlight)) return;
  s.step = "settling";
  fx.push({ kind: "bust", roundId: s.round!.roundId });
}

const inFlight = (b: MachineBet) => b.cashOut !== null && b.status === "active";

function endRound(s: CrashMachineState, now: number, pauseMs: number, fx: CrashEffect[]): void {
  const hadRound = s.round !== null;
  s.round = null;
  s.placing = [];
  s.step = "idle";
  s.resumeAt = now + pauseMs;
  if (hadRound) fx.push({ kind: "lease", roundId: null });
  tryOpen(s, now, fx);
}

const isCurrent = (s: CrashMachineState, roundId: string) => s.round?.roundId === roundId;

/**
 * Once stopped and nothing is in flight, the machine ends: a round still open (never busted early) is
 * handed to the restart rule; a bust already under way is finished first.
 */
function finishIfStopped(s: CrashMachineState, fx: CrashEffect[]): void {
  if (!s.stopped) return;
  if (!["idle", "betting", "closing", "running"].includes(s.step)) return;
  if (s.placing.length > 0 || s.bets.some(inFlight)) return;
  if (s.round) {
    fx.push({ kind: "lease", roundId: null });
    s.step = "stopping";
    fx.push({ kind: "recover", roundId: s.round.roundId });
    return;
  }
  s.step = "stopped";
  fx.push({ kind: "stopped" });
}

/** A bet of a round left open by a process that went away, as the restart rule reads it. */
export interface InterruptedBet {
  id: string;
  /** the automatic cash-out, in hundredths (200 = 2.00×), or null */
  autoCashOut: number | null;
}

/** What the restart rule does with a round left open: how it closes and, per active bet, whether it pays. */
export interface CrashRestartPlan {
  closeAs: "void" | "busted";
  /** per bet: the automatic cash-out it is paid at, or null for its stake back */
  bets: { betId: string; cashedOutAt: number | null }[];
}

/**
 * The restart rule of the shared crash room, decided here with the rest of its rules: a round still
 * taking bets is void and every stake goes back; a running round is busted, and a bet whose automatic
 * cash-out is at or below the round's crash point is paid at it (the run would have reached it), any
 * other bet gets its stake back (nobody saw the round end). `crashPoint` is in hundredths.
 */
export function crashRestartPlan(
  round: { phase: "betting" | "running"; crashPoint: number },
  bets: readonly InterruptedBet[],
): CrashRestartPlan {
  const running = round.phase === "running";
  return {
    closeAs: running ? "busted" : "void",
    bets: bets.map((b) => ({
      betId: b.id,
      cashedOutAt: running && b.autoCashOut !== null && b.autoCashOut <= round.crashPoint ? b.autoCashOut : null,
    })),
  };
}
