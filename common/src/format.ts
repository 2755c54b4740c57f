import { DAILY_SPIN_COOLDOWN_MS } from "./constants";

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

/**
 * A payout not yet rounded (rule 2 pays the coin below or the one above, by chance in proportion):
 * "1,234" when it is whole, else "1,234 or 1,235". `low` and `high` are the payout rounded down and up.
 */
export const formatWholePayout = (low: number, high: number): string =>
  low === high ? formatCoins(low) : `${formatCoins(low)} or ${formatCoins(high)}`;

let exact: Intl.NumberFormat | undefined;
const formatExact = (n: number): string =>
  (exact ??= new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(n);

/**
 * The words for a settled round; `bets` is how many separate bets it held (a layout's spots), and
 * `unrounded` what it paid before a payout was rounded to whole coins (rule 2), when one was. A win
 * whose rounding came out at the stake is told as such, never as a push.
 */
export function roundResultText(
  result: "win" | "lose" | "push" | null,
  stake: number,
  payout: number,
  bets = 1,
  unrounded: number | null = null,
): string {
  const net = payout - stake;
  const rounded =
    unrounded !== null && unrounded !== payout ? `${formatExact(unrounded)} paid as ${coinsText(payout)} after rounding` : null;
  if (result === "win") return `You won +${coinsText(net)}`;
  if (result === "push") {
    if (rounded && bets === 1 && unrounded! > stake) return `Win at ${formatMultiplier(unrounded! / stake)}: ${rounded}, your stake back`;
    if (rounded) return `Break even: ${rounded}`;
    // one bet handed back is a push; several bets whose wins make up for their losses are not
    return bets > 1 ? `Break even: your bets paid back the ${formatCoins(stake)} staked` : "Push: your bet is returned";
  }
  if (rounded) return `You lost ${coinsText(-net)}: ${rounded}`;
  return net < 0 ? `You lost ${coinsText(-net)}` : "No win";
}

/** A signed change: "+250", "-1,000", "0". */
export const formatDelta = (n: number): string => (n > 0 ? `+${formatCoins(n)}` : formatCoins(n));

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
