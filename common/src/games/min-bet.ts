import { z } from "zod";
import { MIN_BET, minimumStake, minimumStakeForBound, type Chance, type PayLine } from "../limits";
import { BACCARAT_PAYS, BACCARAT_SIDES, type BaccaratSide } from "./baccarat";
import { coupOdds } from "./baccarat-odds";
import { BLACKJACK_DECKS, cardPoints } from "./blackjack";
import { FULL_DECK } from "./cards";
import { WIN_RETURN } from "./coin-flip";
import {
  ANY_CRAPS_RETURN,
  ANY_SEVEN_RETURN,
  EVEN_MONEY,
  FIELD_RETURN,
  HARD_RETURN,
  LAY_ODDS_RETURN,
  PASS_ODDS_RETURN,
  PLACE_RETURN,
  POINTS,
  type CrapsState,
  type PointNumber,
} from "./craps";
import { crashParams } from "./crash";
import { diceParams, MAX_CHANCE, MIN_CHANCE, ROLLS, RTP_NUMERATOR, winChance } from "./dice";
import { allOrderedRolls } from "./dice-faces";
import { GameRuleError } from "./engine";
import { RANKS, winningRanks } from "./hi-lo";
import { ALL_DRAWS, catchWays, hundredths, kenoParams, MAX_PICKS, payTable, RISKS, type KenoRisk } from "./keno";
import { limboParams, winningDraws } from "./limbo";
import { binomial, MAX_MINES, MIN_MINES, minesMultiplier, minesParams, TILES as MINE_TILES } from "./mines";
import { RAISE_MULTIPLE, RAISE_PAYS } from "./poker";
import { coveredNumbers, EVEN_MONEY_TYPES, GROUP_TYPES, LAYOUT_SETS, POCKETS, rouletteBet, type RouletteBet } from "./roulette";
import { sicBoBet, TOTAL_ODDS, settleSicBoBet, type SicBoBet } from "./sic-bo";
import { linePays, REELS, lineAt } from "./slots";
import { ANTE_BONUS, PAIR_PLUS_PAYS } from "./three-card-poker";
import { PAYS as VIDEO_POKER_PAYS } from "./video-poker";

/**
 * Minimum bets, computed exactly from each engine's pay table and probabilities: for every bet type the
 * smallest stake from which on rounding payouts down to whole coins costs at most 1 percentage point of
 * RTP (limits.ts has the rule and the arithmetic). A bet type is one stake that is paid as a unit: the
 * amount of a single-stake game, or one chip of a table game (a roulette number, a craps place bet, the
 * banker side in baccarat). Strategy games take the worst case over every way of playing the round.
 *
 * `minBetFor(game, bet)` takes, for the single-stake games, the bet's params as the engine takes them
 * (dice `{ target, direction }`, keno `{ picks, risk }`, mines `{ mines }`, limbo `{ target }`, crash
 * `{ cashOutAt }`), and for the table games one chip: roulette and sic bo a bet of their `bets` list (the
 * amount may be left out), craps `{ type, number? }` (for pass and don't pass odds `number` is the
 * table's point), baccarat `{ side }`, three card poker `{ bet: "ante" | "pairPlus" }`. Without `bet` it
 * answers the game's strictest minimum, which is safe for every bet of the game.
 */

const big = (n: number | bigint): bigint => BigInt(n);
const payLine = (chance: Chance, [numerator, denominator]: readonly [number | bigint, number | bigint]): PayLine => ({
  chance,
  numerator: big(numerator),
  denominator: big(denominator),
});
/** The whole-number returns of a pay table: nothing to round, whatever their chances. */
function wholePays(game: string, returns: readonly number[]): PayLine[] {
  const fractional = returns.find((r) => !Number.isInteger(r));
  if (fractional !== undefined) {
    throw new Error(`${game} pays ${fractional} for 1: its minimum bet needs the chance of that payout`);
  }
  return [];
}
const maxOf = (values: Iterable<number>): number => Math.max(MIN_BET, ...values);

/**
 * Minimums by bet type, computed once each: the server checks every stake, so a bet costs a lookup.
 * Bounded, since limbo and crash targets are many (a full cache simply starts again).
 */
const cache = new Map<string, number>();
const CACHE_LIMIT = 50_000;
function cached(key: string, compute: () => number): number {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, (value = compute()));
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------
// Pay lines per bet type

const coinFlipLines = (): PayLine[] => [payLine([1n, 2n], WIN_RETURN)];

/** Win chance c in hundredths of a percent: c of the 10,000 rolls win, each returning 9,900 / c. */
const diceLines = (chance: number): PayLine[] => [payLine([big(chance), big(ROLLS)], [RTP_NUMERATOR, chance])];

/** A target (or cash-out) of T hundredths wins on floor(99 · 2⁵² / T) of the 2⁵² draws and returns T / 100. */
const curveLines = (targetHundredths: number): PayLine[] => [
  payLine([winningDraws(big(targetHundredths)), 2n ** 52n], [targetHundredths, 100]),
];
/** From here on a target's minimum is 1: it wins with chance < 99 / T ≤ 1 %, so it loses < 0.01 coin a round. */
const CURVE_ALWAYS_SAFE = 9_900;

const kenoLines = (risk: KenoRisk, picks: number): PayLine[] =>
  payTable(risk, picks).map((multiplier, hits) => payLine([catchWays(picks, hits), ALL_DRAWS], [hundredths(multiplier), 100]));

/** Cashing out after k gems (every k is a way of playing; one round cashes out at most once). */
const minesMinimum = (mines: number): number => cached(`mines:${mines}`, () => minesWorstCashOut(mines));
function minesWorstCashOut(mines: number): number {
  const minimums: number[] = [];
  for (let gems = 1; gems <= MINE_TILES - mines; gems++) {
    const survive: Chance = [big(binomial(MINE_TILES - mines, gems)), big(binomial(MINE_TILES, gems))];
    minimums.push(minimumStake([payLine(survive, minesMultiplier(mines, gems))]));
  }
  return maxOf(minimums);
}

/**
 * Hi-Lo rounds have no fixed length, so the worst case over every strategy is bounded rather than
 * enumerated: a round loses less than one coin to rounding and only when it cashes out, which needs a
 * correct guess, whose chance is at most the likeliest guess the game allows (12 of 13 ranks).
 */
function hiLoMinimum(): number {
  let likeliest = 0;
  for (let rank = 2; rank <= 14; rank++) {
    for (const guess of ["higher", "lower"] as const) {
      const k = winningRanks(rank, guess);
      if (k < RANKS) likeliest = Math.max(likeliest, k); // a guess that cannot lose is refused
    }
  }
  return minimumStakeForBound([big(likeliest), big(RANKS)]);
}

/**
 * Blackjack's only fractional pay is the natural's 3:2 (stake + floor(1.5 × stake)); doubles, splits,
 * even-money wins and insurance (3 for 1) are whole. A natural is paid when the player's first two cards
 * are one and the dealer's are not, whatever the player does afterwards. Exact over the first four cards
 * of a fresh shoe (player, dealer up, player, dealer hole), by point class: ace, ten-value, other.
 */
function blackjackLines(): PayLine[] {
  const perDeck = [0, 0, 0]; // ace, ten-value, other
  for (const card of FULL_DECK) perDeck[cardPoints(card) === 1 ? 0 : cardPoints(card) === 10 ? 1 : 2]! += 1;
  const counts = perDeck.map((n) => big(n * BLACKJACK_DECKS));
  const isNatural = (a: number, b: number) => (a === 0 && b === 1) || (a === 1 && b === 0);
  let paid = 0n;
  let all = 0n;
  const left = [...counts];
  const take = (c: number): bigint => {
    const n = left[c]!;
    left[c] = n - 1n;
    return n;
  };
  for (let p1 = 0; p1 < 3; p1++)
    for (let up = 0; up < 3; up++)
      for (let p2 = 0; p2 < 3; p2++)
        for (let hole = 0; hole < 3; hole++) {
          left.splice(0, 3, ...counts);
          const ways = take(p1) * take(up) * take(p2) * take(hole);
          all += ways;
          if (isNatural(p1, p2) && !isNatural(up, hole)) paid += ways;
        }
  return [payLine([paid, all], [5, 2]), ...wholePays("blackjack", [2, 1, 3])];
}

const BACCARAT_DECK_COUNT = 8;
function baccaratLines(side: BaccaratSide): PayLine[] {
  const { ways, total } = coupOdds(BACCARAT_DECK_COUNT);
  const { num, den } = BACCARAT_PAYS[side];
  // a Player or Banker bet returns its stake on a tie: nothing to round
  return [payLine([ways[side], total], [num, den])];
}

const threeCardPokerLines = (bet: "ante" | "pairPlus"): PayLine[] =>
  bet === "ante"
    ? wholePays("three-card-poker", [2, 3, 4, ...Object.values(ANTE_BONUS).map((b) => 4 + b!)])
    : wholePays(
        "three-card-poker",
        Object.values(PAIR_PLUS_PAYS).map((p) => 1 + p!),
      );

const pokerLines = (): PayLine[] =>
  wholePays("poker", [2 + RAISE_MULTIPLE, 1 + RAISE_MULTIPLE, ...Object.values(RAISE_PAYS).map((x) => 2 + RAISE_MULTIPLE * (1 + x))]);

const videoPokerLines = (): PayLine[] => wholePays("video-poker", Object.values(VIDEO_POKER_PAYS));

/** Every stop combination of the three reels, grouped by what the line returns. */
function slotsLines(): PayLine[] {
  const byPay = new Map<number, bigint>();
  const combinations = REELS.reduce((n, reel) => n * reel.length, 1);
  for (let a = 0; a < REELS[0]!.length; a++)
    for (let b = 0; b < REELS[1]!.length; b++)
      for (let c = 0; c < REELS[2]!.length; c++) {
        const pays = linePays(lineAt([a, b, c]));
        if (pays > 0) byPay.set(pays, (byPay.get(pays) ?? 0n) + 1n);
      }
  return [...byPay].map(([pays, ways]) => payLine([ways, big(combinations)], [pays, 1]));
}

/** A bet covering c numbers wins on c of the 37 pockets and returns 36 / c. */
const rouletteLines = (bet: RouletteBet): PayLine[] => {
  const covered = coveredNumbers(bet).length;
  return [payLine([big(covered), big(POCKETS)], [36, covered])];
};

const SIC_BO_ROLLS = allOrderedRolls(3);
function sicBoLines(bet: SicBoBet): PayLine[] {
  const byReturn = new Map<number, bigint>();
  for (const dice of SIC_BO_ROLLS) {
    const settled = settleSicBoBet({ ...bet, amount: 1 }, dice);
    if (settled.win) byReturn.set(settled.payout, (byReturn.get(settled.payout) ?? 0n) + 1n);
  }
  return [...byReturn].map(([ret, ways]) => payLine([ways, big(SIC_BO_ROLLS.length)], [ret, 1]));
}

/** Ways to throw each total with two dice. */
const TWO_DICE_WAYS = new Map<number, number>();
for (const [a, b] of allOrderedRolls(2)) TWO_DICE_WAYS.set(a! + b!, (TWO_DICE_WAYS.get(a! + b!) ?? 0) + 1);
const ways = (total: number) => TWO_DICE_WAYS.get(total) ?? 0;
/** A number before a 7, and a 7 before the number: the only chances a multi-roll craps bet depends on. */
const numberFirst = (n: number): Chance => [big(ways(n)), big(ways(n) + ways(7))];
const sevenFirst = (n: number): Chance => [big(ways(7)), big(ways(n) + ways(7))];

export const CRAPS_CHIP_TYPES = [
  "pass",
  "dontPass",
  "come",
  "dontCome",
  "field",
  "anySeven",
  "anyCraps",
  "hard",
  "place",
  "passOdds",
  "comeOdds",
  "dontPassOdds",
  "dontComeOdds",
] as const;
export type CrapsChipType = (typeof CRAPS_CHIP_TYPES)[number];

/**
 * Every craps bet is settled once. Line bets, field, hardways and the one-roll bets return whole
 * multiples; place bets and odds pay fractions (7:6, 7:5, 9:5; 6:5, 3:2; 5:6, 2:3, 1:2) on the number
 * they ride on, won with the chance that number comes before a 7 (or after, for lay odds).
 */
function crapsLines(type: CrapsChipType, number: PointNumber): PayLine[] {
  switch (type) {
    case "place":
      return [payLine(numberFirst(number), PLACE_RETURN[number])];
    case "passOdds":
    case "comeOdds":
      return [payLine(numberFirst(number), PASS_ODDS_RETURN[number])];
    case "dontPassOdds":
    case "dontComeOdds":
      return [payLine(sevenFirst(number), LAY_ODDS_RETURN[number])];
    case "field":
      return wholePays(
        "craps",
        Object.values(FIELD_RETURN).map(([n, d]) => n / d),
      );
    case "hard":
      return wholePays(
        "craps",
        Object.values(HARD_RETURN).map(([n, d]) => n / d),
      );
    default:
      return wholePays(
        "craps",
        [EVEN_MONEY, ANY_SEVEN_RETURN, ANY_CRAPS_RETURN].map(([n, d]) => n / d),
      );
  }
}
const crapsNumbered = (type: CrapsChipType) =>
  type === "place" || type === "passOdds" || type === "comeOdds" || type === "dontPassOdds" || type === "dontComeOdds";
const crapsMinimum = (type: CrapsChipType, number?: PointNumber): number =>
  cached(`craps:${type}:${crapsNumbered(type) ? (number ?? "any") : ""}`, () => crapsChipMinimum(type, number));
const crapsChipMinimum = (type: CrapsChipType, number?: PointNumber): number =>
  crapsNumbered(type)
    ? maxOf((number === undefined ? POINTS : [number]).map((n) => minimumStake(crapsLines(type, n))))
    : minimumStake(crapsLines(type, POINTS[0]));

// ---------------------------------------------------------------------------------------------------
// Strictest minimum of each game (every bet type), computed once

function everyRouletteBet(): RouletteBet[] {
  const inside = Object.entries(LAYOUT_SETS).flatMap(([type, sets]) =>
    sets.map((numbers) => ({ type, numbers: [...numbers], amount: 1 }) as RouletteBet),
  );
  const outside = EVEN_MONEY_TYPES.map((type) => ({ type, amount: 1 }) as RouletteBet);
  const groups = GROUP_TYPES.flatMap((type) => [1, 2, 3].map((value) => ({ type, value, amount: 1 }) as RouletteBet));
  return [...inside, ...outside, ...groups];
}

function everySicBoBet(): SicBoBet[] {
  const faces = [1, 2, 3, 4, 5, 6];
  return [
    ...(["small", "big", "anyTriple"] as const).map((type) => ({ type, amount: 1 }) as SicBoBet),
    ...Object.keys(TOTAL_ODDS).map((value) => ({ type: "total", value: Number(value), amount: 1 }) as SicBoBet),
    ...(["triple", "double", "single"] as const).flatMap((type) => faces.map((value) => ({ type, value, amount: 1 }) as SicBoBet)),
    ...faces.flatMap((a) => faces.filter((b) => b > a).map((b) => ({ type: "combination", numbers: [a, b], amount: 1 }) as SicBoBet)),
  ];
}

const STRICTEST: Record<string, () => number> = {
  "coin-flip": () => minimumStake(coinFlipLines()),
  dice: () => {
    let worst = MIN_BET;
    for (let c = MIN_CHANCE; c <= MAX_CHANCE; c++) worst = Math.max(worst, diceMinimum(c));
    return worst;
  },
  limbo: () => {
    let worst = MIN_BET;
    for (let t = 101; t < CURVE_ALWAYS_SAFE; t++) worst = Math.max(worst, curveMinimum(t));
    return worst;
  },
  crash: () => minBetFor("limbo"),
  keno: () => maxOf(RISKS.flatMap((risk) => Array.from({ length: MAX_PICKS }, (_, i) => minimumStake(kenoLines(risk, i + 1))))),
  mines: () => maxOf(Array.from({ length: MAX_MINES - MIN_MINES + 1 }, (_, i) => minesMinimum(MIN_MINES + i))),
  "hi-lo": hiLoMinimum,
  blackjack: () => minimumStake(blackjackLines()),
  baccarat: () => maxOf(BACCARAT_SIDES.map((side) => minimumStake(baccaratLines(side)))),
  poker: () => minimumStake(pokerLines()),
  "three-card-poker": () => maxOf((["ante", "pairPlus"] as const).map((bet) => minimumStake(threeCardPokerLines(bet)))),
  "video-poker": () => minimumStake(videoPokerLines()),
  slots: () => minimumStake(slotsLines()),
  roulette: () => maxOf(everyRouletteBet().map((bet) => minimumStake(rouletteLines(bet)))),
  "sic-bo": () => maxOf(everySicBoBet().map((bet) => minimumStake(sicBoLines(bet)))),
  craps: () => maxOf(CRAPS_CHIP_TYPES.map((type) => crapsMinimum(type))),
};
const strictestMemo = new Map<string, number>();

const diceMinimum = (chance: number) => cached(`dice:${chance}`, () => minimumStake(diceLines(chance)));
const curveMinimum = (target: number) => cached(`curve:${target}`, () => minimumStake(curveLines(target)));
const kenoMinimum = (risk: KenoRisk, picks: number) => cached(`keno:${risk}:${picks}`, () => minimumStake(kenoLines(risk, picks)));
const baccaratMinimum = (side: BaccaratSide) => cached(`baccarat:${side}`, () => minimumStake(baccaratLines(side)));
const rouletteMinimum = (bet: RouletteBet) => cached(`roulette:${coveredNumbers(bet).length}`, () => minimumStake(rouletteLines(bet)));
const sicBoMinimum = (bet: SicBoBet) => cached(`sic-bo:${JSON.stringify({ ...bet, amount: 1 })}`, () => minimumStake(sicBoLines(bet)));

// ---------------------------------------------------------------------------------------------------
// Queries

const crapsChip = z.object({ type: z.enum(CRAPS_CHIP_TYPES), number: z.literal(POINTS).optional() }).loose();
const baccaratChip = z.object({ side: z.enum(BACCARAT_SIDES) }).loose();
const threeCardPokerChip = z.object({ bet: z.enum(["ante", "pairPlus"]) }).loose();

function parsed<T>(schema: z.ZodType<T>, value: unknown, game: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new GameRuleError("invalid_params", `not a ${game} bet: ${result.error.issues[0]?.message ?? "invalid"}`);
  return result.data;
}
const withAmount = (bet: unknown) => ({ amount: 1, ...(bet as object) });

/**
 * The minimum stake of a bet type (see the module comment for the shape of `bet`), or the game's
 * strictest minimum without `bet`. 1 for a game without a minimum of its own (no payout to round).
 */
export function minBetFor(game: string, bet?: unknown): number {
  if (bet === undefined) {
    const strictest = STRICTEST[game];
    if (!strictest) return MIN_BET;
    let value = strictestMemo.get(game);
    if (value === undefined) strictestMemo.set(game, (value = strictest()));
    return value;
  }
  switch (game) {
    case "coin-flip":
      return minBetFor(game);
    case "dice":
      return diceMinimum(winChance(parsed(diceParams, bet, game)));
    case "limbo":
      return curveMinimum(Math.round(parsed(limboParams, bet, game).target * 100));
    case "crash":
      return curveMinimum(Math.round(parsed(crashParams, bet, game).cashOutAt * 100));
    case "keno": {
      const { picks, risk } = parsed(kenoParams, bet, game);
      return kenoMinimum(risk, picks.length);
    }
    case "mines":
      return minesMinimum(parsed(minesParams, bet, game).mines);
    case "roulette":
      return rouletteMinimum(parsed(rouletteBet, withAmount(bet), game));
    case "sic-bo":
      return sicBoMinimum(parsed(sicBoBet, withAmount(bet), game));
    case "craps": {
      const chip = parsed(crapsChip, bet, game);
      return crapsMinimum(chip.type, chip.number);
    }
    case "baccarat":
      return baccaratMinimum(parsed(baccaratChip, bet, game).side);
    case "three-card-poker": {
      const which = parsed(threeCardPokerChip, bet, game).bet;
      return cached(`three-card-poker:${which}`, () => minimumStake(threeCardPokerLines(which)));
    }
    default:
      return minBetFor(game);
  }
}

/** One stake of a bet, paid as a unit, with its minimum. */
export interface StakeMinimum {
  /** what the stake is on, for messages: "banker", "place 6", "dice under 50" */
  label: string;
  amount: number;
  minimum: number;
}

const rouletteLabel = (bet: RouletteBet) =>
  "numbers" in bet
    ? `${bet.type} ${[...bet.numbers].sort((a, b) => a - b).join("-")}`
    : "value" in bet
      ? `${bet.type} ${bet.value}`
      : bet.type;
const sicBoLabel = (bet: SicBoBet) =>
  bet.type === "combination" ? `combination ${bet.numbers.join("-")}` : "value" in bet ? `${bet.type} ${bet.value}` : bet.type;
const CRAPS_LABEL: Record<CrapsChipType, string> = {
  pass: "pass line",
  dontPass: "don't pass",
  come: "come",
  dontCome: "don't come",
  field: "field",
  anySeven: "any seven",
  anyCraps: "any craps",
  hard: "hard",
  place: "place",
  passOdds: "pass line odds",
  comeOdds: "come odds",
  dontPassOdds: "don't pass lay odds",
  dontComeOdds: "don't come lay odds",
};

function crapsStakes(chips: readonly { type: CrapsChipType; number?: number; amount: number }[], point: number | null): StakeMinimum[] {
  return chips.map((chip) => {
    const on = (chip.type === "passOdds" || chip.type === "dontPassOdds" ? point : chip.number) as PointNumber | null | undefined;
    const label = on ? `${CRAPS_LABEL[chip.type]} ${on}` : CRAPS_LABEL[chip.type];
    return { label, amount: chip.amount, minimum: crapsMinimum(chip.type, on ?? undefined) };
  });
}

/**
 * The stakes of an opening bet with their minimums: one per chip for the table games, else the amount.
 * `params` must already be valid for the game's engine.
 */
export function betStakes(game: string, amount: number, params: unknown): StakeMinimum[] {
  const p = params as Record<string, any>;
  switch (game) {
    case "roulette":
      return (p.bets as RouletteBet[]).map((bet) => ({ label: rouletteLabel(bet), amount: bet.amount, minimum: rouletteMinimum(bet) }));
    case "sic-bo":
      return (p.bets as SicBoBet[]).map((bet) => ({ label: sicBoLabel(bet), amount: bet.amount, minimum: sicBoMinimum(bet) }));
    case "craps":
      return crapsStakes(p.bets, null);
    case "baccarat":
      return BACCARAT_SIDES.filter((side) => p.bets[side] !== undefined).map((side) => ({
        label: side,
        amount: p.bets[side] as number,
        minimum: baccaratMinimum(side),
      }));
    case "three-card-poker":
      return (["ante", "pairPlus"] as const)
        .filter((bet) => p[bet] > 0)
        .map((bet) => ({ label: bet === "ante" ? "ante" : "Pair Plus", amount: p[bet] as number, minimum: minBetFor(game, { bet }) }));
    case "dice":
      return [{ label: `dice ${p.direction} ${p.target}`, amount, minimum: minBetFor(game, params) }];
    case "limbo":
      return [{ label: `limbo at ${p.target}×`, amount, minimum: minBetFor(game, params) }];
    case "crash":
      return [{ label: `crash cashing out at ${p.cashOutAt}×`, amount, minimum: minBetFor(game, params) }];
    case "keno":
      return [
        { label: `keno (${p.risk}, ${p.picks.length} pick${p.picks.length === 1 ? "" : "s"})`, amount, minimum: minBetFor(game, params) },
      ];
    case "mines":
      return [{ label: `mines with ${p.mines} mine${p.mines === 1 ? "" : "s"}`, amount, minimum: minBetFor(game, params) }];
    default:
      return [{ label: game, amount, minimum: minBetFor(game) }];
  }
}

/** The stakes an action adds to an open round (craps bets placed while the dice roll), with their minimums. */
export function actionStakes(game: string, state: unknown, action: unknown): StakeMinimum[] {
  const a = action as { type?: string; bets?: { type: CrapsChipType; number?: number; amount: number }[] };
  if (game !== "craps" || a.type !== "bet" || !a.bets) return [];
  return crapsStakes(a.bets, (state as CrapsState).point);
}

/** The refusal for the first stake below its minimum, or null when every stake meets its minimum. */
export function belowMinimum(stakes: readonly StakeMinimum[]): GameRuleError | null {
  const low = stakes.find((s) => s.amount < s.minimum);
  if (!low) return null;
  return new GameRuleError(
    "below_minimum",
    `The minimum bet on ${low.label} is ${low.minimum} coins: below it, rounding payouts down to whole coins would cost more than 1 % of the stake`,
  );
}

/**
 * The smallest amount a bet panel may send per unit for a bet whose stakes at one coin per unit are
 * `perUnit`: a plain bet stakes the amount once, a chip table stakes each spot its chip count times the
 * chip value. Every stake then meets its own minimum (a stack of k chips on a spot needs k × value at
 * least the spot's minimum), and no smaller amount does. MIN_BET for a bet without stakes.
 */
export function minimumPerUnit(perUnit: readonly StakeMinimum[]): number {
  return Math.max(MIN_BET, ...perUnit.filter((s) => s.amount > 0).map((s) => Math.ceil(s.minimum / s.amount)));
}
