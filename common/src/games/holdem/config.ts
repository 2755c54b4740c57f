/**
 * A Hold'em table's settings and their defaults (docs/architecture/holdem.md). Every amount is in whole
 * coins and every time in milliseconds.
 */
export interface HoldemConfig {
  smallBlind: number;
  bigBlind: number;
  /** The smallest and largest stack a player may sit down with, in big blinds. */
  minBuyInBigBlinds: number;
  maxBuyInBigBlinds: number;
  /** How long a player has for each decision before the time bank starts to run. */
  decisionMs: number;
  /** The time bank a player sits down with, spent by decisions that take longer than `decisionMs`. */
  timeBankMs: number;
  /** Added to each dealt-in player's time bank after every hand, up to `timeBankMs`. */
  timeBankRefillMs: number;
  /** How long a dropped player keeps the seat (checked or folded meanwhile) before being sat out. */
  graceMs: number;
}

/** Seats at the casino's Hold'em table (the hand machine allows up to HOLDEM_MAX_SEATS; a table has 8). */
export const HOLDEM_TABLE_SEATS = 8;

export const HOLDEM_DEFAULTS: HoldemConfig = {
  smallBlind: 1,
  bigBlind: 2,
  minBuyInBigBlinds: 40,
  maxBuyInBigBlinds: 200,
  decisionMs: 15_000,
  timeBankMs: 30_000,
  timeBankRefillMs: 5_000,
  graceMs: 60_000,
};

export const HOLDEM_MAX_SEATS = 9;

/** Throws when the settings cannot make a table (blinds not whole, small blind above the big one…). */
export function checkConfig(c: HoldemConfig): HoldemConfig {
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 0;
  if (!whole(c.smallBlind) || !whole(c.bigBlind) || c.smallBlind < 1 || c.bigBlind < c.smallBlind)
    throw new Error("the blinds must be whole coins, the small blind at least 1 and at most the big blind");
  if (!whole(c.minBuyInBigBlinds) || !whole(c.maxBuyInBigBlinds) || c.minBuyInBigBlinds < 1 || c.maxBuyInBigBlinds < c.minBuyInBigBlinds)
    throw new Error("the buy-in range must be whole big blinds, from at least 1");
  if ([c.decisionMs, c.timeBankMs, c.timeBankRefillMs, c.graceMs].some((t) => !whole(t)) || c.decisionMs < 1)
    throw new Error("the times must be whole milliseconds, the decision time at least 1");
  return c;
}
