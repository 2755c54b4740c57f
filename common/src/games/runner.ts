import { LEGACY_ROUNDING, payerFor, PAYOUT_ROUNDING, type RoundingDraw, type RoundingRule } from "../fairness/rounding";
import { floatStream, type FairnessInput, type Rng } from "../fairness/stream";
import { isValidStake, MAX_BET, MAX_PAYOUT, MIN_BET, STAKE_RULE_MESSAGE } from "../limits";
import { describeZodError } from "../validation";
import { GameRuleError, type AnyGameEngine, type Step } from "./engine";
import { engineFor } from "./registry";

/**
 * The one path every round takes, on the server and in the client's verifier: validate the bet or
 * action with the engine's schema, run the engine, and check that what it returns is a whole,
 * in-range amount of coins.
 */
export function requireEngine(game: string): AnyGameEngine {
  const engine = engineFor(game);
  if (!engine) throw new GameRuleError("unknown_game", `Unknown game "${game}"`);
  return engine;
}

/** The rules a round is played under: how its payouts are made whole (fairness/rounding.ts). */
export interface RoundRules {
  rounding: RoundingRule;
  /** hears every rounding that drew floats (the verifier lists them) */
  onRounding?: (draw: RoundingDraw) => void;
}

/** The rules of a round played now. */
export const LIVE_PLAY: RoundRules = { rounding: PAYOUT_ROUNDING };

/** The rules of a round that states none (played before rules were recorded): rounded down. */
export const LEGACY_RULES: RoundRules = { rounding: LEGACY_ROUNDING };

const payerOf = (rules: RoundRules, rng: Rng) => payerFor(rules.rounding, rng, rules.onRounding);

/** The stake rule (limits.ts), refused with its one message. */
export function checkStake(amount: number): void {
  if (!isValidStake(amount)) throw new GameRuleError("invalid_amount", STAKE_RULE_MESSAGE);
}

/**
 * The checks of a bet that need nothing but the bet itself (the stake's limits and the game's params),
 * so a server can refuse a bad bet before it touches the database. Answers the parsed params.
 */
export function checkBet(engine: AnyGameEngine, amount: number, rawParams: unknown): unknown {
  checkStake(amount);
  const parsed = engine.params.safeParse(rawParams ?? {});
  if (!parsed.success) throw new GameRuleError("invalid_params", describeZodError(parsed.error));
  return parsed.data;
}

export function startRound(
  engine: AnyGameEngine,
  amount: number,
  rawParams: unknown,
  rng: Rng,
  rules: RoundRules = LEGACY_RULES,
): Step<unknown> {
  const params = checkBet(engine, amount, rawParams);
  return checkStep(engine.start(amount, params, rng, payerOf(rules, rng)), true);
}

export function actRound(
  engine: AnyGameEngine,
  state: unknown,
  rawAction: unknown,
  rng: Rng,
  rules: RoundRules = LEGACY_RULES,
): Step<unknown> {
  if (!engine.act || !engine.actions) throw new GameRuleError("not_multi_step", `${engine.id} has no actions`);
  const parsed = engine.actions.safeParse(rawAction);
  if (!parsed.success) throw new GameRuleError("invalid_action", describeZodError(parsed.error));
  return checkStep(engine.act(state, parsed.data, rng, payerOf(rules, rng)), false);
}

function checkStep(step: Step<unknown>, opening: boolean): Step<unknown> {
  const wholeCoins = (n: number) => Number.isSafeInteger(n) && n >= 0;
  if (!wholeCoins(step.stake) || !wholeCoins(step.payout) || step.payout > MAX_PAYOUT) {
    throw new Error(`engine returned an invalid step (stake ${step.stake}, payout ${step.payout})`);
  }
  if (opening && !isValidStake(step.stake)) {
    throw new GameRuleError("invalid_amount", `Total stake must be from ${MIN_BET} to ${MAX_BET} coins`);
  }
  if (!opening && step.stake > MAX_BET) {
    throw new GameRuleError("invalid_amount", `A stake may not exceed ${MAX_BET} coins`);
  }
  return step;
}

/** Default actions a round may take before it is given up as void (craps ends far sooner with certainty in practice). */
export const MAX_DEFAULT_STEPS = 10_000;

export interface DefaultFinish {
  /** The default actions taken, in order (each one validated and applied like a player's). */
  actions: unknown[];
  steps: Step<unknown>[];
  /** True when the engine had no decision to settle on (or never finished): the round is void. */
  voided: boolean;
}

/**
 * Finishes an abandoned round with the engine's documented default action, step after step, on the
 * same float stream, so the finished round replays like any other. A default step never stakes coins.
 */
export function finishByDefault(engine: AnyGameEngine, state: unknown, rng: Rng, rules: RoundRules): DefaultFinish {
  if (!engine.defaultAction) throw new GameRuleError("not_multi_step", `${engine.id} has no default action`);
  const actions: unknown[] = [];
  const steps: Step<unknown>[] = [];
  let current = state;
  while (steps.length < MAX_DEFAULT_STEPS) {
    const action = engine.defaultAction(current);
    if (action === null) return { actions, steps, voided: true };
    const step = actRound(engine, current, action, rng, rules);
    if (step.stake !== 0) throw new Error(`the default action of ${engine.id} staked ${step.stake} coins`);
    actions.push(action);
    steps.push(step);
    if (step.done) return { actions, steps, voided: false };
    current = step.state;
  }
  return { actions, steps, voided: true };
}

/** What a round record must hold to be re-derived from its seeds. */
export interface RoundReplay {
  game: string;
  amount: number;
  params: unknown;
  actions: readonly unknown[];
  /** the rounding rule the round was played under; none: rule 1 (recorded before rules were) */
  rounding?: RoundingRule;
}

export interface ReplayOutcome {
  steps: Step<unknown>[];
  totalStake: number;
  totalPayout: number;
  done: boolean;
  view: unknown;
}

/** Replays a round from its fairness inputs: the verifier a player can run on any revealed seed. */
export function replayRound(input: FairnessInput, round: RoundReplay): ReplayOutcome {
  const engine = requireEngine(round.game);
  const rng = floatStream(input);
  const rules: RoundRules = { rounding: round.rounding ?? LEGACY_ROUNDING };
  const steps = [startRound(engine, round.amount, round.params, rng, rules)];
  for (const action of round.actions) {
    const last = steps[steps.length - 1]!;
    if (last.done) throw new GameRuleError("round_over", "The round is already over");
    steps.push(actRound(engine, last.state, action, rng, rules));
  }
  const last = steps[steps.length - 1]!;
  return {
    steps,
    totalStake: steps.reduce((sum, s) => sum + s.stake, 0),
    totalPayout: steps.reduce((sum, s) => sum + s.payout, 0),
    done: last.done,
    view: engine.view(last.state, last.done),
  };
}
