import { ROOMS } from "./rooms";

/**
 * Playing together: the "together" room. One connection per client carries who is in the player's
 * activity instance (and what each plays), the instance's live feed of settled rounds, and the global
 * "big wins" feed. Guests and standalone visits join with `instanceId: null` and hear the global feed only.
 * No zod here (the client's entry imports this file); the schemas are in together-schemas.ts.
 */
export const TOGETHER_ROOM = ROOMS.together;

/**
 * Client → server: `at`, the table the player sits at now (null: the lobby) and their place at the
 * instance's shared blackjack table; `watch`, the member of the
 * instance (by Discord id) whose table the player watches now (null: none); `react`, a reaction
 * (reactions.ts) on something the instance's members see; `race-start`, a race of the instance for
 * `minutes` (RACE_MINUTES); `race-join`, the player joins the instance's race while its join window is open.
 */
export const TOGETHER_MESSAGES = { at: "at", watch: "watch", react: "react", raceStart: "race-start", raceJoin: "race-join" } as const;

/** Server → client message types. */
export const TOGETHER_PUSH = {
  members: "members",
  feed: "feed",
  table: "table",
  reaction: "reaction",
  board: "board",
  race: "race",
  error: "error",
} as const;

/**
 * The tonight board (`board` push) is computed and pushed at most once per this many ms per instance:
 * after a member's settled round and after a member joins.
 */
export const TONIGHT_PUSH_MS = 400;

/**
 * Between pushes the server brings the board up to date with the rounds settled since its previous
 * read; every this many ms per instance it reads the whole board again (the safety net of those
 * incremental reads), and pushes it if it changed.
 */
export const TONIGHT_FULL_READ_MS = 30_000;

/** A watched table's steps are pushed at most once per this many ms per watched player (the latest step wins). */
export const WATCH_PUSH_MS = 250;

/** A settled round is a big win from this multiplier (payout / stake) and this payout on. */
export const BIG_WIN_MULTIPLIER = 10;
export const BIG_WIN_MIN_PAYOUT = 1_000;
export const isBigWin = (stake: number, payout: number) =>
  stake > 0 && payout >= BIG_WIN_MIN_PAYOUT && payout / stake >= BIG_WIN_MULTIPLIER;

/**
 * At most this many rows of each feed in one push; pushes are at most one per `FEED_FLUSH_MS` per room.
 * More rows than that in one window wait for the next pushes, in order: none is dropped.
 */
export const FEED_MAX_ROWS_PER_PUSH = 20;
export const FEED_FLUSH_MS = 250;
/**
 * At most this many rows of each feed wait in a room for their push (10 pushes, 2.5 s of rows). A row
 * that arrives while as many wait is folded into one `FeedFolded` entry behind them, which counts every
 * round it stands for: under a sustained flood a room's memory stays bounded and no round goes uncounted.
 */
export const FEED_MAX_QUEUED_ROWS = 200;

/** What a feed row stands for (see FeedRow). */
export const FEED_ROW_KINDS = ["round", "crash", "skill", "table", "holdem"] as const;

/**
 * One settled round as the feeds show it. Only what the finished round's own player sees in the history
 * is here (never an open round's view); an anonymous player's row carries no name or avatar.
 * - `kind: "round"` (a solo table): `serverSeedHash` and `nonce` name the round; its verifier view opens
 *   once that seed is revealed.
 * - `kind: "crash"` (a bet in a shared crash round, published at the bust): `serverSeedHash` is the
 *   round's game hash (revealed by the bust), `nonce` its game number.
 * - `kind: "skill"` (a rewarded skill round): no stake; `payout` is the reward; no seed named.
 * - `kind: "table"` (a seat's round at the shared blackjack table): `serverSeedHash` is the shoe's
 *   commitment (its seed is revealed when the shoe is finished), `nonce` the round's number in the shoe.
 * - `kind: "holdem"` (a player's part of a finished hand at the Hold'em table, game `holdem`): `stake` is
 *   what the seat put in, `payout` what it won; `serverSeedHash` is the hand's seed commitment (revealed
 *   with the hand), `nonce` the hand's number at its table. No card is in it, shown or mucked.
 */
export interface FeedRow {
  /**
   * Unique per round: `<serverSeedHash>:<nonce>`, `crash:<game hash>:<player's place>`, `skill:<round id>`,
   * `table:<shoe hash>:<round>:<seat>`, `holdem:<hand id>:<seat>`.
   */
  id: string;
  kind: (typeof FEED_ROW_KINDS)[number];
  username: string;
  avatarUrl: string | null;
  anonymous: boolean;
  game: string;
  stake: number;
  payout: number;
  /**
   * The bet's own multiplier, before rounding to whole coins: the one "My bets" shows for the round
   * (`roundMultiplier` in games/odds.ts), e.g. 1.98 for a dice win at 1.98× paid 19 or 20, a crash
   * cash-out's multiplier. Never paid ÷ stake. null where the round has no single multiplier (card games
   * and layouts of several bets, a crash bet lost at the bust, a skill round): `payout` says what it paid.
   */
  multiplier: number | null;
  big: boolean;
  /** ISO time of settlement. */
  at: string;
  serverSeedHash: string | null;
  nonce: number | null;
}

/**
 * Rounds a room folded into one entry instead of sending them one by one: they arrived while
 * `FEED_MAX_QUEUED_ROWS` rows of that feed were already waiting. It stands where those rounds would have
 * been, in order, and `rounds` counts them all.
 */
export interface FeedFolded {
  kind: "folded";
  /** Unique: `folded:<uuid>`. Not a round: no reaction goes on it. */
  id: string;
  rounds: number;
  /** ISO time the first of them arrived. */
  at: string;
}

/** One entry of a feed push: a settled round, or rounds folded into one entry. */
export type FeedEntry = FeedRow | FeedFolded;

/**
 * The body of a `feed` push: entries of the player's instance and global big wins, oldest first. Every
 * settled round is in some push, as its own row or counted by a folded entry.
 */
export interface FeedPush {
  instance: FeedEntry[];
  global: FeedEntry[];
}

/** One player of the instance as the server knows them. Anonymous players of others come as `hidden`. */
export interface TogetherMember {
  /** The Discord user id, to match the SDK's participants (a hidden member's too, so the strip leaves them out). */
  discordId: string | null;
  username: string;
  avatarUrl: string | null;
  /** The seed of the generated face (a short hash of the player, the same on every surface), null when hidden. */
  face: string | null;
  /** The game the player sits at now, null in the lobby. */
  game: string | null;
  /** The best net win (payout - stake) of one round today (UTC), 0 when none. */
  bestWinToday: number;
  hidden: boolean;
  self: boolean;
  /** The Discord id of the member whose table this one watches now, null when none (and for a hidden member). */
  watching: string | null;
  /** At the instance's shared blackjack table: the seat, `seat: null` while watching it; null elsewhere (and when hidden). */
  sharedTable: SharedTablePlace | null;
  /** At the instance's Hold'em table: the seat (1 to 8), `seat: null` while watching it; null elsewhere (and when hidden). */
  holdemTable: SharedTablePlace | null;
}

/** A member's place at one of the instance's shared tables: a seat (blackjack 1 to 7, Hold'em 1 to 8), or null while watching. */
export interface SharedTablePlace {
  seat: number | null;
}

export interface MembersPush {
  instanceId: string;
  members: TogetherMember[];
}

/**
 * A watched player's round as their own screen has it: the engine's public view (secrets hidden while
 * the round is open, exactly what the player's client receives), the round's stake and payout so far.
 * No seed, no round id, no balance.
 */
export interface WatchedRound {
  game: string;
  totalStake: number;
  totalPayout: number;
  /** Once the round is done, the bet's own multiplier as the feed row has it (`FeedRow.multiplier`); null while open or where it has none. */
  multiplier: number | null;
  done: boolean;
  result: "win" | "lose" | "push" | null;
  view: unknown;
}

/**
 * The body of a `table` push: the watched member (Discord id) and their round now; `round: null` when
 * no round of theirs is open yet (the first push after `watch` when they sit idle).
 */
export interface TablePush {
  discordId: string;
  round: WatchedRound | null;
}

/**
 * Where the biggest win of a board row is verified (the same places "My bets" and the feeds link to):
 * - `round`: a solo round, by its seed commitment and nonce (the round lookup opens the verifier once
 *   the seed is revealed);
 * - `shoe`: a seat's round at the shared blackjack table, by its shoe and round number;
 * - `chain`: a bet of the shared crash round, by its game number in the hash chain (the crash table's history
 *   verifies it).
 */
export type TonightVerify =
  | { kind: "round"; serverSeedHash: string; nonce: number }
  | { kind: "shoe"; shoeId: string; round: number }
  | { kind: "chain"; gameNumber: number };

/** The best round of a member tonight: the highest payout - stake above 0. */
export interface TonightBiggestWin {
  game: string;
  stake: number;
  payout: number;
  /** payout - stake */
  net: number;
  /** null for an anonymous member seen by someone else (the round's seed would lead to them) */
  verify: TonightVerify | null;
}

/**
 * One member of the instance on the tonight board: every player who joined the instance's together room
 * today (UTC), with the figures of their settled rounds since that first join (game_sessions: every
 * game of chance, the shared crash round's bets and the shared blackjack table's seats; Hold'em hands
 * and skill rewards are not rounds with a stake and are not counted).
 * - `net`: the sum of payout - stake;
 * - `rounds`: settled rounds; `hands`: those of them at card games;
 * - `streak`: the latest run of rounds won (payout above stake, positive) or lost (below, negative),
 *   0 before any; a round that paid its stake back neither extends nor breaks a run.
 * Another viewer sees an anonymous member as `ANONYMOUS_NAME`, with no avatar, Discord id or verify link.
 * A row does not say whether it is the viewer's own: the same board goes to every member (see
 * `isOwnRow`).
 */
export interface TonightRow {
  rank: number;
  discordId: string | null;
  username: string;
  avatarUrl: string | null;
  /** The seed of the generated face (a short hash of the player, the same on every surface), null when hidden. */
  face: string | null;
  hidden: boolean;
  net: number;
  rounds: number;
  hands: number;
  streak: number;
  biggestWin: TonightBiggestWin | null;
  /** ISO time of the member's first join today */
  since: string;
}

/**
 * The body of a `board` push: the instance's board for the UTC day `day` (YYYY-MM-DD), best net first.
 * One board is written for the whole instance and its bytes sent to every member, except to a member in
 * anonymous mode, who gets the board with their own row shown to them as it is.
 */
export interface TonightBoardPush {
  instanceId: string;
  day: string;
  rows: TonightRow[];
}

/**
 * Whether a board row is the viewer's own, by the viewer's Discord id: a hidden row has none, and a
 * member in anonymous mode is sent their own row unhidden.
 */
export const isOwnRow = (row: Pick<TonightRow, "discordId">, viewerDiscordId: string | null | undefined): boolean =>
  row.discordId !== null && row.discordId === viewerDiscordId;

/** A race's lengths a member may choose, in minutes. */
export const RACE_MINUTES = [5, 10, 15] as const;
export type RaceMinutes = (typeof RACE_MINUTES)[number];

/**
 * Once a race is started, the instance's members join it for this long (the one who started it is in
 * already); then it runs for its minutes. Both moments are the server's (its clock decides them).
 */
export const RACE_JOIN_WINDOW_MS = 30_000;

/** A finished race stays on the Tonight tab for this long after its end (or until the next one starts). */
export const RACE_SHOWN_MS = 15 * 60_000;

/** `joining`: the join window is open; `running`: rounds count; `finished`: the final order is known. */
export const RACE_PHASES = ["joining", "running", "finished"] as const;
export type RacePhase = (typeof RACE_PHASES)[number];

/**
 * One member of a race: what they won and lost in rounds settled while the race ran (net = payout −
 * stake of each such round, the Tonight board's rule; rounds settled before the join window closed or
 * after the end are not counted). Members who played come first, best net first (then more rounds, then
 * the earlier join); the winner is the first of them once the race is finished, if anyone played.
 * An anonymous member is `ANONYMOUS_NAME` with no Discord id or avatar to the others.
 */
export interface RaceRow {
  rank: number;
  discordId: string | null;
  username: string;
  avatarUrl: string | null;
  /** The seed of the generated face (a short hash of the player, the same on every surface), null when hidden. */
  face: string | null;
  hidden: boolean;
  self: boolean;
  net: number;
  rounds: number;
  winner: boolean;
}

/** The instance's race as one member sees it; times are ISO strings of the server's clock. */
export interface RaceView {
  id: string;
  phase: RacePhase;
  minutes: RaceMinutes;
  /** Who started it, named as the viewer sees them. */
  startedBy: string;
  joinClosesAt: string;
  endsAt: string;
  /** The server's time when the push was written: the client counts down from the server's clock. */
  now: string;
  /** Whether the viewer is in the race. */
  joined: boolean;
  rows: RaceRow[];
}

/** The body of a `race` push: the instance's race now (null: none running and none finished lately). */
export interface RacePush {
  instanceId: string;
  race: RaceView | null;
}

/** A race's scoreboard as share links carry it (`custom_id`, at most 64 characters): `race.<race id>`. */
const RACE_SHARE_PREFIX = "race.";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The share link's `custom_id` of a race (41 characters). */
export const raceCustomId = (raceId: string): string => `${RACE_SHARE_PREFIX}${raceId}`;

/** The race a launch's `custom_id` names, or null when it names none. */
export function raceOfCustomId(customId: string | null | undefined): string | null {
  if (!customId?.startsWith(RACE_SHARE_PREFIX)) return null;
  const id = customId.slice(RACE_SHARE_PREFIX.length);
  return UUID.test(id) ? id : null;
}

/** Rounds as share links carry them (`custom_id`, at most 64 characters): `r.<hash in base64url>.<nonce>`. */
const SHARE_PREFIX = "r.";

export const SEED_HASH_HEX = /^[0-9a-f]{64}$/;

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** 64 hex digits (32 bytes) as 43 base64url characters; plain string work (no DOM or Node API here). */
function hexToBase64Url(hex: string): string {
  let bits = "";
  for (const digit of hex) bits += parseInt(digit, 16).toString(2).padStart(4, "0");
  let out = "";
  for (let i = 0; i < bits.length; i += 6) out += B64[parseInt(bits.slice(i, i + 6).padEnd(6, "0"), 2)];
  return out;
}

/** The inverse for 43 characters, or null. */
function base64UrlToHex(text: string): string | null {
  if (text.length !== 43) return null;
  let bits = "";
  for (const ch of text) {
    const v = B64.indexOf(ch);
    if (v < 0) return null;
    bits += v.toString(2).padStart(6, "0");
  }
  let hex = "";
  for (let i = 0; i < 256; i += 4) hex += parseInt(bits.slice(i, i + 4), 2).toString(16);
  return hex;
}

/** The share link's `custom_id` of a round. */
export function roundCustomId(serverSeedHash: string, nonce: number): string {
  return `${SHARE_PREFIX}${hexToBase64Url(serverSeedHash)}.${nonce}`;
}

/** The round a launch's `custom_id` names, or null when it names none. */
export function roundOfCustomId(customId: string | null | undefined): { serverSeedHash: string; nonce: number } | null {
  if (!customId?.startsWith(SHARE_PREFIX)) return null;
  const [hash, nonce] = customId.slice(SHARE_PREFIX.length).split(".");
  if (!hash || !nonce || !/^\d{1,15}$/.test(nonce)) return null;
  const hex = base64UrlToHex(hash);
  if (!hex || !SEED_HASH_HEX.test(hex)) return null;
  return { serverSeedHash: hex, nonce: Number(nonce) };
}

/** The answer: the verifier's fields once the seed is revealed, else `revealed: false`. */
export type RoundVerifyAnswer =
  | { revealed: false }
  | {
      revealed: true;
      game: string;
      serverSeed: string;
      serverSeedHash: string;
      clientSeed: string;
      nonce: number;
      amount: number | null;
      params: unknown;
      actions: unknown[];
    };
