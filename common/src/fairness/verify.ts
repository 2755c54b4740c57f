import { WHEEL_PRIZES } from "../constants";
import { cardName, type Card } from "../games/cards";
import { GameRuleError, resultWord, type RoundResult, type Step } from "../games/engine";
import { requireEngine, actRound, startRound } from "../games/runner";
import { spinWheel } from "../games/wheel";
import { handValue, type BlackjackState } from "../games/blackjack";
import { baccaratTotal, type BaccaratState } from "../games/baccarat";
import { evaluateFive, evaluateThree } from "../games/poker-hands";
import { payLineOf, type VideoPokerState } from "../games/video-poker";
import type { CoinFlipState } from "../games/coin-flip";
import type { CrapsState, SettledBet } from "../games/craps";
import type { CrashState } from "../games/crash";
import type { DiceState } from "../games/dice";
import type { HiLoState } from "../games/hi-lo";
import type { KenoState } from "../games/keno";
import type { LimboState } from "../games/limbo";
import type { MinesState } from "../games/mines";
import type { PokerState } from "../games/poker";
import type { RouletteState } from "../games/roulette";
import type { SicBoState } from "../games/sic-bo";
import type { SlotsState } from "../games/slots";
import type { ThreeCardPokerState } from "../games/three-card-poker";
import { describeRounding, isRoundingRule, LEGACY_ROUNDING, roundingRuleName, type RoundingDraw, type RoundingRule } from "./rounding";
import { floatStream, sha256Hex, type FairnessInput, type Rng } from "./stream";

/**
 * The verifier: re-derives any round (a bet and its actions, or a daily spin) from its revealed server
 * seed, client seed and nonce with the same engines the server runs, and describes it step by step
 * (every float drawn, the cards, tiles, reel stops, dice and numbers it made). Needs nothing but this
 * package: no server, no network.
 */

/** The daily bonus wheel, verified like a game. */
export const DAILY_SPIN = "daily-spin";

export interface VerifyRequest {
  serverSeed: string;
  /** The commitment shown before the seed was revealed: checked against SHA-256(serverSeed) when given. */
  serverSeedHash?: string;
  clientSeed: string;
  nonce: number;
  /** A chance game's id, or "daily-spin". */
  game: string;
  /** The opening bet in coins (not needed for a daily spin). */
  amount?: number;
  params?: unknown;
  /** The round's actions after the opening bet, in order. */
  actions?: readonly unknown[];
  /**
   * The rounding rule the round was played under (its history row states it); a round that states none
   * was played before rules were recorded: rule 1, rounded down.
   */
  rounding?: RoundingRule;
}

/** One float of the stream: the n-th (cursor n) is bytes 4·(n mod 8) … +3 of HMAC block floor(n / 8). */
export interface VerifiedFloat {
  cursor: number;
  block: number;
  bytes: [number, number];
  value: number;
}

export interface VerifiedStep {
  /** "bet", "spin", or the action's type */
  kind: string;
  /** the action as given; null for the opening bet and the spin */
  action: unknown;
  /** every float this step drew, in order */
  floats: VerifiedFloat[];
  /** what happened, for display: "Player: A♠ K♠ (21)", "Roll 51.27: under 50 loses" */
  lines: string[];
  /** every payout of the step that had a fraction to round, and how it was rounded (rule 2) */
  roundings: RoundingDraw[];
  stake: number;
  payout: number;
  done: boolean;
}

export interface CommitmentCheck {
  /** SHA-256 of the server seed, as the verifier computes it */
  serverSeedHash: string;
  /** the hash given to check, if any */
  expected: string | null;
  /** null when no hash was given */
  matches: boolean | null;
}

export interface RoundVerification {
  game: string;
  /** the rounding rule the round was re-derived under */
  rounding: RoundingRule;
  clientSeed: string;
  nonce: number;
  commitment: CommitmentCheck;
  steps: VerifiedStep[];
  totalStake: number;
  totalPayout: number;
  done: boolean;
  /** win / lose / push once the round is over (a daily spin is a win) */
  result: RoundResult | null;
  /** the engine's final view, as the server records it (for a daily spin: segment and prize) */
  view: unknown;
  /** one line: what the round came to */
  summary: string;
}

export function checkCommitment(serverSeed: string, expected?: string | null): CommitmentCheck {
  const serverSeedHash = sha256Hex(serverSeed);
  const given = expected?.trim().toLowerCase() || null;
  return { serverSeedHash, expected: given, matches: given === null ? null : given === serverSeedHash };
}

/** A float stream that remembers what it hands out, so each step can list its floats. */
function recordingStream(input: FairnessInput): { rng: Rng; drain(): VerifiedFloat[] } {
  const inner = floatStream(input);
  let drawn: VerifiedFloat[] = [];
  return {
    rng: {
      next() {
        const cursor = inner.cursor;
        const value = inner.next();
        drawn.push({ cursor, block: Math.floor(cursor / 8), bytes: [(cursor % 8) * 4, (cursor % 8) * 4 + 3], value });
        return value;
      },
      get cursor() {
        return inner.cursor;
      },
    },
    drain() {
      const out = drawn;
      drawn = [];
      return out;
    },
  };
}

/**
 * The opening stake a table game's params already state (the sum of its chips), or undefined for games
 * whose params do not include the amount.
 */
export function openingStake(game: string, params: unknown): number | undefined {
  const p = params as Record<string, unknown> | null | undefined;
  if (!p || typeof p !== "object") return undefined;
  const sum = (values: unknown[]) => values.reduce<number>((total, v) => total + (typeof v === "number" ? v : NaN), 0);
  switch (game) {
    case "roulette":
    case "sic-bo":
    case "craps":
      return Array.isArray(p.bets) ? sum(p.bets.map((b) => (b as { amount?: unknown })?.amount)) : undefined;
    case "baccarat":
      return p.bets && typeof p.bets === "object" ? sum(Object.values(p.bets)) : undefined;
    case "three-card-poker":
      return sum([p.ante, p.pairPlus]);
    default:
      return undefined;
  }
}

/** Re-derives a round (or a daily spin) and describes it step by step. Throws a GameRuleError on a bad request. */
export function verifyRound(request: VerifyRequest): RoundVerification {
  const input: FairnessInput = { serverSeed: request.serverSeed, clientSeed: request.clientSeed, nonce: request.nonce };
  const commitment = checkCommitment(request.serverSeed, request.serverSeedHash);
  const stream = recordingStream(input);
  const rounding = request.rounding ?? LEGACY_ROUNDING;
  if (!isRoundingRule(rounding)) throw new GameRuleError("invalid_rounding", "The rounding rule must be 1 or 2");
  const base = { game: request.game, rounding, clientSeed: request.clientSeed, nonce: request.nonce, commitment };

  if (request.game === DAILY_SPIN) {
    const { segment, prize } = spinWheel(stream.rng);
    const floats = stream.drain();
    const lines = [
      `segment = floor(${floats[0]!.value} × ${WHEEL_PRIZES.length}) = ${segment}`,
      `segment ${segment} of [${WHEEL_PRIZES.join(", ")}] pays ${prize} coins`,
    ];
    return {
      ...base,
      steps: [{ kind: "spin", action: null, floats, lines, roundings: [], stake: 0, payout: prize, done: true }],
      totalStake: 0,
      totalPayout: prize,
      done: true,
      result: "win",
      view: { segment, prize },
      summary: `Daily spin: segment ${segment}, ${prize} coins`,
    };
  }

  const engine = requireEngine(request.game);
  const describe = DESCRIBERS[engine.id] ?? (() => []);
  const amount = request.amount ?? openingStake(engine.id, request.params);
  if (amount === undefined || !Number.isFinite(amount)) {
    throw new GameRuleError("invalid_amount", `Give the opening bet's amount: ${engine.id} params do not state it`);
  }
  const steps: VerifiedStep[] = [];
  let roundings: RoundingDraw[] = [];
  const rules = { rounding, onRounding: (draw: RoundingDraw) => roundings.push(draw) };
  let step: Step<unknown> = startRound(engine, amount, request.params, stream.rng, rules);
  let previous: unknown = null;
  const record = (kind: string, action: unknown) => {
    const floats = stream.drain();
    const lines = [...describe({ previous, state: step.state, step, floats, action, amount }), ...roundings.map(describeRounding)];
    steps.push({ kind, action, floats, lines, roundings, stake: step.stake, payout: step.payout, done: step.done });
    roundings = [];
    previous = step.state;
  };
  record("bet", null);
  for (const action of request.actions ?? []) {
    if (step.done) throw new GameRuleError("round_over", "The round was already over before this action");
    step = actRound(engine, step.state, action, stream.rng, rules);
    record(typeof (action as { type?: unknown })?.type === "string" ? (action as { type: string }).type : "action", action);
  }
  const totalStake = steps.reduce((s, x) => s + x.stake, 0);
  const totalPayout = steps.reduce((s, x) => s + x.payout, 0);
  const result = step.done ? resultWord(totalStake, totalPayout) : null;
  return {
    ...base,
    steps,
    totalStake,
    totalPayout,
    done: step.done,
    result,
    view: engine.view(step.state, step.done),
    summary: step.done
      ? `${engine.id}: staked ${totalStake}, paid ${totalPayout} (${result})`
      : `${engine.id}: round still open after ${steps.length} step${steps.length === 1 ? "" : "s"} (staked ${totalStake} so far)`,
  };
}

// ---------------------------------------------------------------------------------------------------
// Describers: what each step of each game did, in words a player can check against the floats.

interface StepContext {
  previous: unknown;
  state: unknown;
  step: Step<unknown>;
  floats: VerifiedFloat[];
  action: unknown;
  amount: number;
}
type Describer = (c: StepContext) => string[];

const cards = (list: readonly Card[]) => list.map(cardName).join(" ");
const f = (floats: VerifiedFloat[], i: number) => floats[i]?.value ?? NaN;
const pays = (payout: number) => (payout > 0 ? `pays ${payout}` : "pays nothing");

function blackjack({ previous, state, step, action }: StepContext): string[] {
  const s = state as BlackjackState;
  const before = previous as BlackjackState | null;
  const dealt = s.dealt.slice(before ? before.dealt.length : 0);
  const lines: string[] = [];
  if (!before) {
    lines.push(
      `dealt from a fresh 6-deck shoe: player ${cardName(s.dealt[0]!)}, dealer up ${cardName(s.dealt[1]!)}, player ${cardName(s.dealt[2]!)}, dealer hole ${cardName(s.dealt[3]!)}`,
    );
  } else if ((action as { type?: string })?.type !== "insurance") {
    lines.push(`${describeAction(action)}${dealt.length ? `: dealt ${cards(dealt)}` : ""}`);
  }
  if (s.phase === "insurance") lines.push(`dealer shows an ace: insurance offered (${Math.floor(s.bet / 2)} coins)`);
  if (s.insurance && before?.phase === "insurance")
    lines.push(s.insurance.stake > 0 ? `insurance taken: ${s.insurance.stake} coins` : "insurance declined");
  s.hands.forEach((hand, i) => {
    const v = handValue(hand.cards);
    const tags = [hand.doubled ? "doubled" : "", hand.split ? "split" : "", hand.result ?? (hand.finished ? "stands" : "")].filter(Boolean);
    lines.push(
      `hand ${i + 1}: ${cards(hand.cards)} = ${v.soft ? "soft " : ""}${v.total}${tags.length ? ` (${tags.join(", ")})` : ""}${hand.payout !== undefined ? `, ${pays(hand.payout)}` : ""}`,
    );
  });
  lines.push(`dealer: ${cards(s.dealer)} = ${handValue(s.dealer).total}${s.dealerBlackjack ? " (blackjack)" : ""}`);
  if (s.insurance && s.phase === "done" && s.insurance.stake > 0) lines.push(`insurance ${pays(s.insurance.payout)}`);
  if (step.done) lines.push(`round over: ${pays(step.payout)}`);
  return lines;
}

function describeAction(action: unknown): string {
  const a = action as { type?: string; take?: boolean; hold?: boolean[]; tile?: number; bets?: unknown[]; bet?: string; number?: number };
  switch (a?.type) {
    case "insurance":
      return a.take ? "take insurance" : "decline insurance";
    case "reveal":
      return `reveal tile ${a.tile}`;
    case "takeDown":
      return `take down ${a.bet}${a.number === undefined ? "" : ` ${a.number}`}`;
    case "bet":
      return `bet ${(a.bets as { type: string; number?: number; amount: number }[]).map((b) => `${b.type}${b.number === undefined ? "" : ` ${b.number}`} ${b.amount}`).join(", ")}`;
    default:
      return a?.type ?? "action";
  }
}

function poker({ state, step }: StepContext): string[] {
  const s = state as PokerState;
  const mine = evaluateFive(s.player).category;
  const theirs = evaluateFive(s.dealer).category;
  const lines = [`player: ${cards(s.player)} (${mine})`, `dealer: ${cards(s.dealer)} (${theirs}), up card ${cardName(s.dealer[0]!)}`];
  if (s.outcome) lines.push(`${s.outcome === "fold" ? "folded" : `raised ${step.stake}: ${s.outcome}`}, ${pays(step.payout)}`);
  return lines;
}

function baccarat({ state, step }: StepContext): string[] {
  const s = state as BaccaratState;
  return [
    `player: ${cards(s.player)} = ${baccaratTotal(s.player)}`,
    `banker: ${cards(s.banker)} = ${baccaratTotal(s.banker)}`,
    `${s.winner === "tie" ? "tie" : `${s.winner} wins`}; ${Object.entries(s.payouts)
      .map(([side, p]) => `${side} ${s.bets[side as "player"]} ${pays(p!)}`)
      .join(", ")}`,
    `round ${pays(step.payout)}`,
  ];
}

function threeCardPoker({ state, step }: StepContext): string[] {
  const s = state as ThreeCardPokerState;
  const lines = [
    `player: ${cards(s.player)} (${evaluateThree(s.player).category})`,
    `dealer: ${cards(s.dealer)} (${evaluateThree(s.dealer).category})`,
  ];
  if (s.anteOutcome) lines.push(`${s.anteOutcome === "fold" ? "folded" : `played ${step.stake}: ${s.anteOutcome}`}`);
  if (step.done) lines.push(`round ${pays(step.payout)}`);
  return lines;
}

function videoPoker({ state, step }: StepContext): string[] {
  const s = state as VideoPokerState;
  if (!s.final) return [`dealt: ${cards(s.hand)} (${payLineOf(s.hand)})`];
  const held = s.hand.filter((_, i) => s.held![i]);
  return [
    `held: ${held.length ? cards(held) : "nothing"}`,
    `replacements drawn: ${cards(s.replacements!)} (the k-th discard takes the k-th)`,
    `final: ${cards(s.final)} (${payLineOf(s.final)}), ${pays(step.payout)}`,
  ];
}

const draw52 = (floats: VerifiedFloat[]) => {
  const high = Math.floor(f(floats, 0) * 2 ** 26);
  const low = Math.floor(f(floats, 1) * 2 ** 26);
  return `r = floor(f₀ × 2²⁶) × 2²⁶ + floor(f₁ × 2²⁶) = ${high} × 2²⁶ + ${low} = ${BigInt(high) * 2n ** 26n + BigInt(low)}`;
};

function crash({ state, step, floats }: StepContext): string[] {
  const s = state as CrashState;
  return [
    draw52(floats),
    `crash point = max(1.00, floor(99 × 2⁵² / (2⁵² − r)) / 100) = ${s.crashPoint.toFixed(2)}×`,
    `cash-out at ${s.cashOutAt}×: ${s.win ? "reached" : "not reached"}, ${pays(step.payout)}`,
  ];
}

function limbo({ state, step, floats }: StepContext): string[] {
  const s = state as LimboState;
  return [
    draw52(floats),
    `result = max(1.00, floor(99 × 2⁵² / (2⁵² − r)) / 100) = ${s.result.toFixed(2)}×`,
    `target ${s.target}×: ${s.win ? "reached" : "not reached"}, ${pays(step.payout)}`,
  ];
}

function coinFlip({ state, step, floats }: StepContext): string[] {
  const s = state as CoinFlipState;
  return [
    `${f(floats, 0)} ${s.outcome === "tails" ? "< 0.5: tails" : "≥ 0.5: heads"}`,
    `called ${s.side}: ${s.win ? "win" : "lose"}, ${pays(step.payout)}`,
  ];
}

function dice({ state, step, floats }: StepContext): string[] {
  const s = state as DiceState;
  const roll = Math.round(s.roll * 100);
  return [
    `roll = floor(${f(floats, 0)} × 10000) / 100 = ${(roll / 100).toFixed(2)}`,
    `${s.direction} ${s.target} wins when the roll is ${s.direction === "under" ? "below" : "above"} ${s.target}: ${s.win ? "win" : "lose"}, ${pays(step.payout)}`,
  ];
}

function hiLo({ previous, state, step, action }: StepContext): string[] {
  const s = state as HiLoState;
  const rankName = (card: Card) => cardName(card).slice(0, -1);
  if (!previous) return [`first card: ${cardName(s.cards[0]!)}`];
  const before = previous as HiLoState;
  const current = before.cards[before.cards.length - 1]!;
  const a = (action as { type: string }).type;
  if (a === "cashout") return [`cash out after ${before.correct} correct guess${before.correct === 1 ? "" : "es"}: ${pays(step.payout)}`];
  const next = s.cards[s.cards.length - 1]!;
  if (a === "skip") return [`skip ${cardName(current)}: next card ${cardName(next)}`];
  const right = s.status !== "lost";
  const lines = [
    `${a} or same as ${cardName(current)} (rank ${rankName(current)}): next card ${cardName(next)}, ${right ? "correct" : "wrong"}`,
  ];
  if (right) lines.push(`multiplier now 0.99 × ${s.numerator}/${s.denominator}`);
  if (step.done) lines.push(right ? `payout cap reached: cashed out, ${pays(step.payout)}` : "round lost");
  return lines;
}

function rolledSettled(settled: readonly SettledBet[]): string[] {
  return settled.map(
    (b) =>
      `${b.type}${b.number === undefined ? "" : ` ${b.number}`} (${b.amount}${b.odds ? ` + odds ${b.odds}` : ""}): ${b.result}, ${pays(b.payout)}`,
  );
}

function craps({ previous, state, step }: StepContext): string[] {
  const s = state as CrapsState;
  const before = previous as CrapsState | null;
  const lines: string[] = [];
  const rolled = s.rolls.length > (before?.rolls.length ?? 0);
  if (rolled) {
    const [a, b] = s.rolls[s.rolls.length - 1]!;
    lines.push(`dice: ${a} + ${b} = ${a + b}`);
  }
  lines.push(...rolledSettled(s.settled));
  lines.push(s.point === null ? "no point (come-out)" : `point is ${s.point}`);
  if (step.done) lines.push("no bet left on the table: round over");
  return lines;
}

function sicBo({ state, step }: StepContext): string[] {
  const s = state as SicBoState;
  return [
    `dice: ${s.dice.join(", ")} (total ${s.total})`,
    ...s.bets.map((b) => {
      const bet = b.bet;
      const label =
        bet.type === "combination" ? `combination ${bet.numbers.join("-")}` : "value" in bet ? `${bet.type} ${bet.value}` : bet.type;
      return `${label} ${bet.amount}: ${b.win ? "win" : "lose"}, ${pays(b.payout)}`;
    }),
    `round ${pays(step.payout)}`,
  ];
}

function slots({ state, step, floats }: StepContext): string[] {
  const s = state as SlotsState;
  return [
    `stops: ${s.stops.map((stop, i) => `reel ${i + 1} floor(${f(floats, i)} × 20) = ${stop}`).join("; ")}`,
    `line: ${s.line.join(" ")} returns ${s.multiplier} for 1, ${pays(step.payout)}`,
  ];
}

function roulette({ state, step, floats }: StepContext): string[] {
  const s = state as RouletteState;
  return [
    `pocket = floor(${f(floats, 0)} × 37) = ${s.pocket} (${s.color})`,
    ...s.bets.map(
      (b) =>
        `${b.bet.type}${"numbers" in b.bet ? ` ${b.bet.numbers.join("-")}` : "value" in b.bet ? ` ${b.bet.value}` : ""} ${b.bet.amount}: ${b.win ? "win" : "lose"}, ${pays(b.payout)}`,
    ),
    `round ${pays(step.payout)}`,
  ];
}

function keno({ state, step }: StepContext): string[] {
  const s = state as KenoState;
  return [
    `drawn (in order): ${s.drawn.join(", ")}`,
    `picks: ${s.picks.join(", ")}; hits: ${s.hits.length ? s.hits.join(", ") : "none"}`,
    `${s.risk} table, ${s.picks.length} picks, ${s.hits.length} hits: ${s.multiplier}×, ${pays(step.payout)}`,
  ];
}

function mines({ previous, state, step, action }: StepContext): string[] {
  const s = state as MinesState;
  if (!previous) return [`mines on tiles ${s.mines.join(", ")} (drawn in that order; tiles 0–24, row by row)`];
  const a = action as { type: string; tile?: number };
  if (a.type === "cashout") return [`cash out after ${s.revealed.length} gem${s.revealed.length === 1 ? "" : "s"}: ${pays(step.payout)}`];
  if (s.status === "lost") return [`tile ${a.tile}: mine, round lost`];
  const lines = [`tile ${a.tile}: gem (${s.revealed.length} found)`];
  if (step.done) lines.push(`cashed out automatically: ${pays(step.payout)}`);
  return lines;
}

const DESCRIBERS: Record<string, Describer> = {
  blackjack,
  poker,
  baccarat,
  "three-card-poker": threeCardPoker,
  "video-poker": videoPoker,
  crash,
  "coin-flip": coinFlip,
  "hi-lo": hiLo,
  dice,
  limbo,
  craps,
  "sic-bo": sicBo,
  slots,
  roulette,
  keno,
  mines,
};

/** The verification as plain text, one step after the other (what the CLI prints). */
export function formatVerification(v: RoundVerification): string {
  const out: string[] = [];
  const c = v.commitment;
  out.push(`server seed hash: ${c.serverSeedHash}`);
  if (c.matches !== null)
    out.push(
      c.matches
        ? "commitment: matches the hash shown before the seed was revealed"
        : `commitment: DOES NOT MATCH the given hash ${c.expected}`,
    );
  out.push(`game: ${v.game}, client seed ${JSON.stringify(v.clientSeed)}, nonce ${v.nonce}`);
  if (v.game !== DAILY_SPIN) out.push(`payout rounding: rule ${v.rounding} (${roundingRuleName(v.rounding)})`);
  v.steps.forEach((s, i) => {
    out.push("");
    out.push(`step ${i + 1}: ${i === 0 ? s.kind : describeAction(s.action)}${s.stake ? ` (stakes ${s.stake})` : ""}`);
    for (const x of s.floats) out.push(`  float #${x.cursor} (block ${x.block}, bytes ${x.bytes[0]}–${x.bytes[1]}): ${x.value}`);
    for (const line of s.lines) out.push(`  ${line}`);
  });
  out.push("");
  out.push(v.summary);
  return out.join("\n");
}
