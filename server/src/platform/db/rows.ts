import type {
  AccountTransfer,
  ActivityInstanceMember,
  TonightJoin,
  AdminAction,
  ConsumerCursor,
  CrashBet,
  CrashChain,
  CrashRound,
  DotBattleScore,
  DotsSpeedRecord,
  FairnessSeed,
  GamePlay,
  GamePlayCount,
  HoldemHandRow,
  HoldemHandPlayerRow,
  HoldemSeatRow,
  HoldemTableRow,
  GameSession,
  LedgerEntry,
  NextServerSeed,
  OpenRound,
  Player,
  PlayerGameCount,
  PlayerGuild,
  PlayerProgress,
  PlayerTag,
  ProcessedRequest,
  SkillRound,
  Suggestion,
  Tag,
  TableBetRow,
  TableRound,
  TableShoe,
} from "./entities/index";

/**
 * Row types for raw SQL (`sqlRows<Row<"crash_bets", "id" | "amount">>(…)`), derived from the entities so
 * a column that is renamed, dropped or retyped there breaks the queries that name it at compile time.
 *
 * A row is what the driver hands back, not what the entity holds: snake_case column names, and bigint
 * columns as `BigintValue` (pg answers them as strings, PGlite as numbers), so reading one as a number
 * takes an explicit `Number(…)`. Relations are left out: raw SQL reads the id column.
 */

/** A bigint column as it arrives from the driver: a string from pg, a number from PGlite. */
export type BigintValue = string | number;

/** `autoCashOut` → `auto_cash_out`: the entities name each column so. */
type Snake<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${Snake<Tail>}`
  : S;

/** The column properties of an entity: the required ones (relations are declared optional). */
type ColumnKeys<E> = { [K in keyof E]-?: object extends Pick<E, K> ? never : K }[keyof E] & string;

/** An entity's row as raw SQL returns it; `Bigints` are its bigint columns. */
type RowOf<E, Bigints extends ColumnKeys<E> = never> = {
  [K in ColumnKeys<E> as Snake<K>]: K extends Bigints ? BigintValue | Extract<E[K], null> : E[K];
};

/** Every table, by name. */
export interface Tables {
  players: RowOf<Player, "balance">;
  ledger_entries: RowOf<LedgerEntry, "id" | "delta" | "balanceAfter">;
  account_transfers: RowOf<AccountTransfer, "id" | "amount">;
  processed_requests: RowOf<ProcessedRequest>;
  fairness_seeds: RowOf<FairnessSeed>;
  next_server_seeds: RowOf<NextServerSeed>;
  game_sessions: RowOf<GameSession, "betAmount" | "payout" | "seq">;
  open_rounds: RowOf<OpenRound, "amount" | "totalStake" | "totalPayout">;
  /** a view: every round's play, and the legacy rows */
  game_plays: RowOf<GamePlay>;
  game_plays_legacy: RowOf<GamePlay>;
  tags: RowOf<Tag>;
  player_tags: RowOf<PlayerTag>;
  skill_rounds: RowOf<SkillRound, "reward">;
  dots_speed_records: RowOf<DotsSpeedRecord>;
  dot_battle_scores: RowOf<DotBattleScore>;
  suggestions: RowOf<Suggestion>;
  player_guilds: RowOf<PlayerGuild>;
  activity_instance_members: RowOf<ActivityInstanceMember>;
  tonight_joins: RowOf<TonightJoin>;
  player_progress: RowOf<PlayerProgress, "peakBalance" | "lastSessionSeq">;
  player_game_counts: RowOf<PlayerGameCount, "plays">;
  game_play_counts: RowOf<GamePlayCount, "plays">;
  consumer_cursors: RowOf<ConsumerCursor, "position">;
  crash_chains: RowOf<CrashChain>;
  crash_rounds: RowOf<CrashRound, "crashPoint">;
  crash_bets: RowOf<CrashBet, "amount" | "autoCashOut" | "cashedOutAt" | "payout">;
  admin_actions: RowOf<AdminAction, "id" | "amount">;
  table_shoes: RowOf<TableShoe>;
  table_rounds: RowOf<TableRound>;
  table_bets: RowOf<TableBetRow, "amount" | "staked" | "payout">;
  holdem_tables: RowOf<HoldemTableRow>;
  holdem_seats: RowOf<HoldemSeatRow, "buyIn" | "stack" | "cashedOut">;
  holdem_hands: RowOf<HoldemHandRow>;
  holdem_hand_players: RowOf<HoldemHandPlayerRow, "putIn" | "won">;
}

/** Some columns (all by default) of one table's row. */
export type Row<T extends keyof Tables, C extends keyof Tables[T] = keyof Tables[T]> = Pick<Tables[T], C>;
