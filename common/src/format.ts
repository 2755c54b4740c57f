import { DAILY_SPIN_COOLDOWN_MS } from "./constants";
import { MAX_PAYOUT } from "./limits";

/** Display formats the spec fixes: coins with thousands separators, record times, the spin countdown. */

// Each format is made on first use: the first Intl formatter of a page loads ICU's locale data, the
// costliest statement of the client's start-up when run while its modules are evaluated.
let coinFormat: Intl.NumberFormat | undefined;

/** 1234567 → "1,234,567". */
export const formatCoins = (n: number): string => (coinFormat ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 })).format(n);

/** An amount with its word: "1 coin", "-1 coin", "2 coins", "1,000 coins". */
export const coinsText = (n: number): string => `${formatCoins(n)} ${Math.abs(n) === 1 ? "coin" : "coins"}`;

/**
 * Multipliers, everywhere the same: two decimals and thousands separators, "1.98×", "1.33×" (never
 * "1.3333×"), "9,900.00×".
 */
let multiplier: Intl.NumberFormat | undefined;
export const formatMultiplier = (m: number): string =>
  `${(multiplier ??= new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(m)}×`;

let exactShort: Intl.NumberFormat | undefined;
let exactLong: Intl.NumberFormat | undefined;

/**
 * Payouts closer than this to a whole coin read as whole: products like 10 × 1.98 carry float noise
 * (below 10⁻⁷ of a coin up to the payout cap). Where the coins a payout can pay are known exactly (the
 * engines round them), callers pass them, so the coins said never rest on this tolerance.
 */
const WHOLE_TOLERANCE = 1e-6;

/** The whole coins around an exact payout: [rounded down, rounded up], equal when it is whole. */
export function wholeCoinsAround(exactPayout: number): [number, number] {
  const nearest = Math.round(exactPayout);
  if (Math.abs(exactPayout - nearest) <= WHOLE_TOLERANCE) return [nearest, nearest];
  return [Math.floor(exactPayout), Math.ceil(exactPayout)];
}

/**
 * An exact payout as a number of coins: up to two decimals ("19.8", "1,285.71"), more where two would
 * read as a whole number it is not ("19.999" stays "19.999", never "20").
 */
export function formatExactCoins(exactPayout: number): string {
  const [low, high] = wholeCoinsAround(exactPayout);
  if (low === high) return formatCoins(low);
  const short = (exactShort ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 })).format(exactPayout);
  if (short.includes(".")) return short;
  return (exactLong ??= new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 })).format(exactPayout);
}

const coinRange = (low: number, high: number): string =>
  high - low === 1 ? `${formatCoins(low)} or ${formatCoins(high)}` : `${formatCoins(low)} to ${formatCoins(high)}`;

/**
 * A payout told honestly, the one way every screen and the verifier tell one: the exact value, and the
 * whole coins it pays. A whole payout is just its coins ("20"); one that is not names the exact value,
 * the whole coins rule 2 pays one of, and that it pays the exact value on average: "19.8: pays 19 or 20,
 * 19.8 on average". `coins` are the least and the most it can pay when the caller knows them (a round of
 * several bets, each rounded on its own, can pay "19 to 21"); by default the whole coins around it.
 */
export function payoutText(exactPayout: number, coins?: { low: number; high: number }): string {
  const [low, high] = coins ? [coins.low, coins.high] : wholeCoinsAround(exactPayout);
  const value = formatExactCoins(exactPayout);
  if (low === high) return value === formatCoins(low) ? value : `${value}: pays ${formatCoins(low)}`;
  return `${value}: pays ${coinRange(low, high)}, ${value} on average`;
}

/**
 * The payout `amount × numerator / denominator` (whole numbers) under rule 2, capped, told by payoutText:
 * the whole coins around it are computed exactly, never from a float.
 */
export function ratioPayoutText(amount: number, numerator: number, denominator: number): string {
  const { value, pays } = ratioPayoutParts(amount, numerator, denominator);
  return pays === null ? value : `${value}: ${pays}`;
}

/**
 * ratioPayoutText in its two parts, for a label set on two lines: the exact value ("12.3") and, when it
 * is not a whole number of coins, what rule 2 pays of it ("pays 12 or 13, 12.3 on average"), else null.
 */
export function ratioPayoutParts(amount: number, numerator: number, denominator: number): { value: string; pays: string | null } {
  const n = BigInt(amount) * BigInt(numerator);
  const d = BigInt(denominator);
  const cap = BigInt(MAX_PAYOUT);
  const low = n / d;
  if (low >= cap) return { value: formatCoins(MAX_PAYOUT), pays: null };
  const high = n % d === 0n ? low : low + 1n;
  const text = payoutText(Number(low) + Number(n % d) / Number(d), { low: Number(low), high: Number(high > cap ? cap : high) });
  const at = text.indexOf(": ");
  return at < 0 ? { value: text, pays: null } : { value: text.slice(0, at), pays: text.slice(at + 2) };
}

/**
 * What a settled payout was, with what it was paid for: "paid 20" when nothing was rounded, "paid 19 of
 * 19.8 (19 or 20, 19.8 on average)" when it was. `exactPayout` null: the round rounded nothing.
 */
export function paidText(paid: number, exactPayout: number | null): string {
  if (exactPayout === null) return `paid ${formatCoins(paid)}`;
  const [around, above] = wholeCoinsAround(exactPayout);
  if (around === above && paid === around) return `paid ${formatCoins(paid)}`;
  // several payouts rounded one by one can land beyond the two coins around their sum
  const value = formatExactCoins(exactPayout);
  return `paid ${formatCoins(paid)} of ${value} (${coinRange(Math.min(around, paid), Math.max(above, paid))}, ${value} on average)`;
}

/**
 * A round's one net figure, what it did to the player: payout − stake, signed, "+9", "-10", "0". The
 * header's change chip, the round's result line, the toast and the history rows all tell a round by it;
 * a gross payout is only ever told labelled as such ("paid 19", `paidText`). Any other change of the
 * balance (the daily spin's prize, a reward) is told the same way.
 */
export const formatNet = (net: number): string => (net > 0 ? `+${formatCoins(net)}` : formatCoins(net));

/** The net figure with its word: "+9 coins", "-1 coin", "0 coins". */
export const netCoinsText = (net: number): string => `${formatNet(net)} ${Math.abs(net) === 1 ? "coin" : "coins"}`;

/**
 * The words for a settled round, led by its net figure (`netCoinsText`): "You won: +9 coins", "You lost:
 * -10 coins". `bets` is how many separate bets it held (a layout's spots), and `unrounded` what it paid
 * before a payout was rounded to whole coins (rule 2), when one was. A win whose rounding came out at the
 * stake is told as such, never as a push.
 */
export function roundResultText(
  result: "win" | "lose" | "push" | null,
  stake: number,
  payout: number,
  bets = 1,
  unrounded: number | null = null,
): string {
  const net = payout - stake;
  const figure = netCoinsText(net);
  const rounded =
    unrounded !== null && unrounded !== payout ? `${formatExactCoins(unrounded)} paid as ${coinsText(payout)} after rounding` : null;
  if (net > 0) return `You won: ${figure}`;
  if (net === 0 || result === "push") {
    if (rounded && bets === 1 && unrounded! > stake)
      return `Win at ${formatMultiplier(unrounded! / stake)}: ${figure}, ${rounded}, your stake back`;
    if (rounded) return `Break even: ${figure}, ${rounded}`;
    // one bet handed back is a push; several bets whose wins make up for their losses are not
    if (result === "push")
      return bets > 1
        ? `Break even: ${figure}, your bets paid back the ${formatCoins(stake)} staked`
        : `Push: ${figure}, your bet is returned`;
    return `No win: ${figure}`;
  }
  return rounded ? `You lost: ${figure}, ${rounded}` : `You lost: ${figure}`;
}

/** Record times: "mm:ss" from a minute up (e.g. "01:05"), otherwise seconds with hundredths ("42.37s"). */
export function formatRecordTime(ms: number): string {
  const t = Math.max(0, Math.floor(ms));
  if (t >= 60_000) {
    const minutes = Math.floor(t / 60_000);
    const seconds = Math.floor((t % 60_000) / 1000);
    return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
  }
  return `${(Math.floor(t / 10) / 100).toFixed(2)}s`;
}

/** "Xh Ym" for a remaining time, rounded up to the minute so it never reads "0h 0m" while waiting. */
export function formatHoursMinutes(ms: number): string {
  const minutes = Math.max(0, Math.ceil(ms / 60_000));
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/**
 * Whether the daily spin is available, and how long until it is (never more than the cooldown, even
 * when this device's clock runs behind the server's that stamped the last spin).
 */
export function spinAvailability(lastDailySpin: string | Date | null | undefined, now: number): { ready: boolean; msLeft: number } {
  if (!lastDailySpin) return { ready: true, msLeft: 0 };
  const last = new Date(lastDailySpin).getTime();
  if (Number.isNaN(last)) return { ready: true, msLeft: 0 };
  const msLeft = last + DAILY_SPIN_COOLDOWN_MS - now;
  return msLeft <= 0 ? { ready: true, msLeft: 0 } : { ready: false, msLeft: Math.min(msLeft, DAILY_SPIN_COOLDOWN_MS) };
}

/** "1 game available", "5 games available". */
export const gamesAvailable = (n: number): string => `${n} ${n === 1 ? "game" : "games"} available`;
