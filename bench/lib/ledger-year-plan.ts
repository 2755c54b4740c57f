import { parseArgs } from "node:util";

/** The layouts `bench:ledger-year` can build the year's ledger in. */
export const LAYOUTS = ["plain", "partitioned"] as const;
export type Layout = (typeof LAYOUTS)[number];

/**
 * Ledger entries per bet (the stake, and the payout of about half of them) and a player's entries in a
 * year at the rate: 10 million bets a day, about 1.5 entries each, over a million players (the
 * scaling plan's target) is 5.5 billion entries a year, about 5,500 a player.
 */
export const ENTRIES_PER_BET = 1.5;
export const ENTRIES_PER_PLAYER_YEAR = Math.round((10_000_000 * ENTRIES_PER_BET * 365) / 1_000_000);

/**
 * Bytes on disk per row, heap and indexes together, as `bench:ledger-year` measured them at 10 million
 * entries (311-320 and 398, rounded up): a ledger entry with its five indexes, a round (`game_sessions`) with its four.
 * The disk check uses them before anything is written.
 */
export const LEDGER_BYTES_PER_ROW = 325;
export const ROUND_BYTES_PER_ROW = 410;

export interface LedgerYearOptions {
  rows: number;
  players: number;
  layouts: Layout[];
  /** Timed reads of each kind per layout (random players). */
  samples: number;
  /** pgbench: clients, seconds per phase, and rounds of the phases (each round runs every layout once). */
  clients: number;
  seconds: number;
  rounds: number;
}

/** Parses `bench:ledger-year`'s arguments; throws a message naming the bad one. */
export function parseLedgerYearArgs(argv: string[]): LedgerYearOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      rows: { type: "string", default: "10000000" },
      players: { type: "string" },
      layout: { type: "string", default: "both" },
      samples: { type: "string", default: "200" },
      clients: { type: "string", default: "32" },
      seconds: { type: "string", default: "10" },
      rounds: { type: "string", default: "2" },
    },
  });
  const int = (name: string, text: string, min: number) => {
    const n = Number(text.replaceAll("_", ""));
    if (!Number.isSafeInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min}, not "${text}"`);
    return n;
  };
  const rows = int("rows", values.rows, 1000);
  const layout = values.layout;
  if (layout !== "both" && !(LAYOUTS as readonly string[]).includes(layout))
    throw new Error(`--layout must be plain, partitioned or both, not "${layout}"`);
  return {
    rows,
    // By default a player has a year's worth of entries: the per-player reads then see what they would see in a year.
    players: values.players === undefined ? Math.max(1, Math.round(rows / ENTRIES_PER_PLAYER_YEAR)) : int("players", values.players, 1),
    layouts: layout === "both" ? [...LAYOUTS] : [layout as Layout],
    samples: int("samples", values.samples, 1),
    clients: int("clients", values.clients, 1),
    seconds: int("seconds", values.seconds, 1),
    rounds: int("rounds", values.rounds, 1),
  };
}

export interface LedgerYearSizes {
  /** Rounds (`game_sessions` rows) that go with the entries, one per 1.5. */
  rounds: number;
  entriesPerDay: number;
  entriesPerPlayer: number;
  /** Estimated bytes on disk: the rounds once, the ledger once per layout. */
  bytes: number;
}

/** What a run of `rows` entries for `players` over 365 days amounts to, and the disk it needs (an estimate). */
export function ledgerYearSizes(rows: number, players: number, layouts: number): LedgerYearSizes {
  const rounds = Math.round(rows / ENTRIES_PER_BET);
  return {
    rounds,
    entriesPerDay: Math.round(rows / 365),
    entriesPerPlayer: rows / players,
    bytes: rows * LEDGER_BYTES_PER_ROW * layouts + rounds * ROUND_BYTES_PER_ROW,
  };
}

/** Refuses a run that would take more than half the free disk; the message says the largest that fits. */
export function checkDisk(rows: number, layouts: number, freeBytes: number): void {
  const need = ledgerYearSizes(rows, 1, layouts).bytes;
  if (need <= freeBytes / 2) return;
  const perEntry = need / rows;
  const largest = Math.floor(freeBytes / 2 / perEntry);
  throw new Error(
    `${rows} entries need about ${gib(need)} GiB, more than half of the ${gib(freeBytes)} GiB free; at most about ${largest} entries fit`,
  );
}

const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(1);
