import { DAILY_SPIN, WHEEL_PRIZES } from "../constants";
import { describeAction } from "../games/describe";
import { GameRuleError, resultWord, type RoundResult, type Step, type StepContext, type VerifiedFloat } from "../games/engine";
import { engineFor } from "../games/registry";
import { requireEngine, actRound, startRound } from "../games/runner";
import { spinWheel } from "../games/wheel";
import {
  describeRounding,
  isRoundingRule,
  LEGACY_ROUNDING,
  roundingRuleName,
  type RoundingDraw,
  type RoundingRule,
} from "../fairness/rounding";
import { floatStream, sha256Hex, type FairnessInput, type Rng } from "../fairness/stream";

/**
 * The verifier: re-derives any round (a bet and its actions, or a daily spin) from its revealed server
 * seed, client seed and nonce with the same engines the server runs, and describes it step by step
 * (every float drawn, the cards, tiles, reel stops, dice and numbers it made). Needs nothing but this
 * package: no server, no network.
 */

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

export type { VerifiedFloat } from "../games/engine";

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
  /**
   * The round's payout before rounding to whole coins, where rule 2 rounded one (the rounding draws
   * give the exact fractions); null where nothing was rounded or the rule (1) records no fraction.
   */
  exactPayout: number | null;
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
  return engineFor(game)?.chips?.stake(p);
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
      exactPayout: null,
      done: true,
      result: "win",
      view: { segment, prize },
      summary: `Daily spin: segment ${segment}, ${prize} coins`,
    };
  }

  const engine = requireEngine(request.game);
  const describe = (context: StepContext) => engine.describe?.(context) ?? [];
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
  const draws = steps.flatMap((s) => s.roundings);
  const exactPayout =
    draws.length === 0 ? null : draws.reduce((sum, d) => sum + d.whole + Number(d.rest) / Number(d.denominator) - d.paid, totalPayout);
  return {
    ...base,
    steps,
    totalStake,
    totalPayout,
    exactPayout,
    done: step.done,
    result,
    view: engine.view(step.state, step.done),
    summary: step.done
      ? `${engine.id}: staked ${totalStake}, paid ${totalPayout} (${result})`
      : `${engine.id}: round still open after ${steps.length} step${steps.length === 1 ? "" : "s"} (staked ${totalStake} so far)`,
  };
}

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
