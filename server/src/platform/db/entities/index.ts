import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
  type Relation,
} from "typeorm";
import type { LogRefusal, PlayerStatus, RoundResult, SkillGame } from "@casino/common";
import { bigintToNumber } from "./transformers";
import { guestSql } from "../guest-rule";

/**
 * The schema, declared: every table, column, foreign key, index and CHECK of the migrations in
 * ../migrations, under the names PostgreSQL gave them there (`<table>_<column>_fkey`, `_key`, `_check`),
 * so TypeORM's schema diff against a migrated database is empty (server/test/schema.test.ts).
 * The migrations stay the way the schema changes; a change goes into a new migration and here together.
 *
 * What TypeORM cannot say, the index comments do: a key column's sort direction (`DESC`) lives only in
 * the migration. TypeORM compares an index by name, columns, uniqueness and method, not by direction.
 *
 * Views are not entities: `game_plays` is a view of `game_sessions` and `game_plays_legacy`, declared
 * in its migration (1764100000006) only; `ledger_checkpoints_in_force` likewise (1764100000018).
 *
 * Foreign keys are relations next to their plain id column (`playerId` and `player` share `player_id`):
 * the code reads and writes the id; the relation declares the constraint.
 */

/** Shorthand for the foreign key of `column` in `table` to the default-named constraint. */
const fk = (table: string, column: string) => ({ name: column, foreignKeyConstraintName: `${table}_${column}_fkey` });
/**
 * A reference without a foreign key: its rows are written only under a lock on the referenced row, which
 * the check would only repeat, and the audit checks it (migration 1764100000006, `npm run audit`).
 */
const LOCKED = { nullable: false, createForeignKeyConstraints: false } as const;

@Entity("tags")
@Check("tags_objective_criteria_check", `objective_criteria >= 0`)
export class Tag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: "text", unique: true }) name!: string;
  @Column({ type: "text" }) description!: string;
  @Column({ name: "objective_type", type: "text" }) objectiveType!: string;
  @Column({ name: "objective_criteria", type: "integer" }) objectiveCriteria!: number;
  @Column({ name: "sort_order", type: "integer", default: 0 }) sortOrder!: number;
  @Column({ name: "custom_for_discord_id", type: "text", nullable: true }) customForDiscordId!: string | null;
}

/** A player: a Discord user or a guest. `balance` is written only by the ledger. */
@Entity("players")
@Check("players_balance_check", `balance >= 0`)
@Check("players_status_check", `status IN ('active','suspended','erased')`)
@Check("players_sound_volume_check", `sound_volume BETWEEN 0 AND 100`)
/** The few players who are not active: every server process reads them every few seconds. */
@Index("idx_players_closed", ["id"], { where: `status <> 'active'` })
/** No index on balance: a bet's update of the row stays HOT (see migration 1763900000000). */
@Index("idx_players_idle_guests", ["lastSeenAt"], { where: `archived_at IS NULL AND ${guestSql("discord_id")}` })
export class Player {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "discord_id", type: "text", unique: true }) discordId!: string;
  @Column({ type: "text" }) username!: string;
  @Column({ name: "avatar_url", type: "text", nullable: true }) avatarUrl!: string | null;
  @Column({ type: "bigint", default: 0, transformer: bigintToNumber }) balance!: number;
  @Column({ name: "active_tag_id", type: "integer", nullable: true }) activeTagId!: number | null;
  @ManyToOne(() => Tag, { nullable: true, onDelete: "SET NULL" })
  @JoinColumn(fk("players", "active_tag_id"))
  activeTag?: Relation<Tag> | null;
  @Column({ name: "anonymous_mode", type: "boolean", default: false }) anonymousMode!: boolean;
  @Column({ name: "theme_mode", type: "text", default: "dark" }) themeMode!: string;
  /** false until the player picks light or dark (the client follows the device's preference meanwhile) */
  @Column({ name: "theme_mode_chosen", type: "boolean", default: false }) themeModeChosen!: boolean;
  @Column({ name: "theme_color", type: "text", default: "200 60% 55%" }) themeColor!: string;
  @Column({ name: "sound_on", type: "boolean", default: true }) soundOn!: boolean;
  @Column({ name: "sound_volume", type: "integer", default: 100 }) soundVolume!: number;
  @Column({ name: "animations_on", type: "boolean", default: true }) animationsOn!: boolean;
  @Column({ name: "result_toasts_on", type: "boolean", default: true }) resultToastsOn!: boolean;
  @Column({ name: "reactions_on", type: "boolean", default: true }) reactionsOn!: boolean;
  @Column({ name: "last_daily_spin", type: "timestamptz", nullable: true }) lastDailySpin!: Date | null;
  @Column({ name: "daily_spin_reminder", type: "boolean", default: false }) dailySpinReminder!: boolean;
  @Column({ name: "last_reminder_sent", type: "timestamptz", nullable: true }) lastReminderSent!: Date | null;
  @Column({ name: "tos_accepted_version", type: "text", nullable: true }) tosAcceptedVersion!: string | null;
  @Column({ name: "dots_games_played_today", type: "integer", default: 0 }) dotsGamesPlayedToday!: number;
  @Column({ name: "dots_last_played_date", type: "text", nullable: true }) dotsLastPlayedDate!: string | null;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  /** Last money request or room join; idle guests are archived after a while (docs/architecture/retention.md). */
  @Column({ name: "last_seen_at", type: "timestamptz", default: () => "now()" }) lastSeenAt!: Date;
  /** An archived guest keeps its rows, but its session no longer works. */
  @Column({ name: "archived_at", type: "timestamptz", nullable: true }) archivedAt!: Date | null;
  /** Suspended by an operator (refused everywhere until restored), or erased at the owner's request. */
  @Column({ type: "text", default: "active" }) status!: PlayerStatus;
}

/**
 * Append-only: every coin that moves has a row here; a player's balance is the sum of their deltas.
 * Partitioned by month on `created_at` (migration 1764100000017): the key is (id, created_at), the id
 * comes from a sequence, and the unique (player_id, request_id) is on each partition alone
 * (`<partition>_player_request`), which an entity cannot declare.
 */
@Entity("ledger_entries")
@Check("ledger_entries_balance_after_check", `balance_after >= 0`)
@Check(
  "ledger_entries_reason_check",
  `reason IN ('grant','bet','payout','refund','daily_spin','reward','admin_adjustment','buy_in','cash_out')`,
)
@Check("ledger_entries_account_check", `account ~ '^(house|mint|holding):[a-z0-9-]+$'`)
/**
 * A player's entries in order; carries the delta so the admin lookup's sum reads the index alone.
 * Migration: (player_id, id) INCLUDE (delta) (TypeORM's `@Index` has no INCLUDE: the schema test compares it so).
 */
@Index("idx_ledger_player", ["playerId", "id", "delta"])
/** For rebuilding the day and week boards: tiny, and nearly free on an append-only table. */
@Index("idx_ledger_created_brin", ["createdAt"], { type: "brin" })
/** A player's daily spins, newest first, for the history. Migration: (player_id, created_at DESC, id DESC). */
@Index("idx_ledger_daily_spins", ["playerId", "createdAt", "id"], { where: `reason = 'daily_spin'` })
export class LedgerEntry {
  @PrimaryColumn({ type: "bigint", transformer: bigintToNumber, generated: "increment" }) id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, LOCKED)
  @JoinColumn({ name: "player_id" })
  player?: Relation<Player>;
  @Column({ type: "bigint", transformer: bigintToNumber }) delta!: number;
  @Column({ name: "balance_after", type: "bigint", transformer: bigintToNumber }) balanceAfter!: number;
  @Column({ type: "text" }) reason!:
    "grant" | "bet" | "payout" | "refund" | "daily_spin" | "reward" | "admin_adjustment" | "buy_in" | "cash_out";
  @Column({ type: "text", nullable: true }) reference!: string | null;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  /** The partition key. */
  @CreateDateColumn({ name: "created_at", type: "timestamptz", primary: true }) createdAt!: Date;
  /** The seed pair and nonce a daily spin drew from (null on other entries and on spins older than them). */
  @Column({ name: "seed_id", type: "uuid", nullable: true }) seedId!: string | null;
  @ManyToOne(() => FairnessSeed, { nullable: true })
  @JoinColumn(fk("ledger_entries", "seed_id"))
  seed?: Relation<FairnessSeed> | null;
  @Column({ type: "integer", nullable: true }) nonce!: number | null;
  /**
   * The counter-party: the account the coins came from (delta > 0) or went to (delta < 0), `house:<game>`,
   * `mint:<source>` or `holding:<game>`; the entry is a transfer between it and the player.
   */
  @Column({ type: "text" }) account!: string;
}

/**
 * A transfer between two accounts that are not players: a round's stakes posted from its holding to the
 * house when it ends, or moved there when they were held ('hold', migration 1764100000007).
 */
@Entity("account_transfers")
@Unique("uq_account_transfers_request", ["requestId"])
@Check("account_transfers_amount_check", `amount > 0`)
@Check("account_transfers_reason_check", `reason IN ('hold','post')`)
@Check("account_transfers_from_check", `from_account ~ '^(house|mint|holding):[a-z0-9-]+$'`)
@Check("account_transfers_to_check", `to_account ~ '^(house|mint|holding):[a-z0-9-]+$' AND to_account <> from_account`)
export class AccountTransfer {
  @PrimaryColumn({ type: "bigint", transformer: bigintToNumber, generated: "identity", generatedIdentity: "ALWAYS" }) id!: number;
  @Column({ name: "from_account", type: "text" }) fromAccount!: string;
  @Column({ name: "to_account", type: "text" }) toAccount!: string;
  @Column({ type: "bigint", transformer: bigintToNumber }) amount!: number;
  @Column({ type: "text" }) reason!: "hold" | "post";
  @Column({ type: "text", nullable: true }) reference!: string | null;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

/**
 * A month's partition of `ledger_entries` or `game_sessions` being archived or archived (migration
 * 1764100000018, server/src/ops/archive.ts): its bounds (`rangeFrom` null: everything before
 * `rangeTo`), rows and the columns of its file; once dropped, the file, its size and SHA-256.
 */
@Entity("archived_partitions")
@Check("archived_partitions_parent_check", `parent IN ('ledger_entries', 'game_sessions')`)
export class ArchivedPartition {
  @PrimaryColumn({ type: "text" }) name!: string;
  @Column({ type: "text" }) parent!: "ledger_entries" | "game_sessions";
  @Column({ name: "range_from", type: "timestamptz", nullable: true }) rangeFrom!: Date | null;
  @Column({ name: "range_to", type: "timestamptz" }) rangeTo!: Date;
  @Column({ type: "bigint", transformer: bigintToNumber }) rows!: number;
  @Column({ type: "text", array: true }) columns!: string[];
  @Column({ name: "checkpointed_at", type: "timestamptz", default: () => "now()" }) checkpointedAt!: Date;
  @Column({ type: "text", nullable: true }) file!: string | null;
  @Column({ type: "bigint", nullable: true, transformer: bigintToNumber }) bytes!: number | null;
  @Column({ type: "text", nullable: true }) sha256!: string | null;
  @Column({ name: "dropped_at", type: "timestamptz", nullable: true }) droppedAt!: Date | null;
}

/**
 * What an archived ledger partition held, per player (the sum of their deltas, the count, and the id and
 * running balance of their last entry in it) and per counter-party account (the sum of its side, minus
 * each delta, and the count). The view `ledger_checkpoints_in_force` (its migration) keeps the rows of
 * partitions no longer attached: balance = checkpoints in force + entries kept.
 */
@Entity("ledger_checkpoints")
@Check("ledger_checkpoints_holder", `(player_id IS NULL) <> (account IS NULL)`)
@Check("ledger_checkpoints_last", `(player_id IS NULL) = (last_id IS NULL) AND (last_id IS NULL) = (last_balance_after IS NULL)`)
@Index("uq_ledger_checkpoints_player", ["playerId", "partition"], { unique: true, where: `player_id IS NOT NULL` })
@Index("uq_ledger_checkpoints_account", ["account", "partition"], { unique: true, where: `account IS NOT NULL` })
export class LedgerCheckpoint {
  @PrimaryColumn({ type: "bigint", transformer: bigintToNumber, generated: "identity", generatedIdentity: "ALWAYS" }) id!: number;
  @Column({ type: "text" }) partition!: string;
  @ManyToOne(() => ArchivedPartition, { nullable: false })
  @JoinColumn(fk("ledger_checkpoints", "partition"))
  archived?: Relation<ArchivedPartition>;
  @Column({ name: "player_id", type: "uuid", nullable: true }) playerId!: string | null;
  @Column({ type: "text", nullable: true }) account!: string | null;
  @Column({ type: "bigint", transformer: bigintToNumber }) amount!: number;
  @Column({ type: "bigint", transformer: bigintToNumber }) entries!: number;
  @Column({ name: "last_id", type: "bigint", nullable: true, transformer: bigintToNumber }) lastId!: number | null;
  @Column({ name: "last_balance_after", type: "bigint", nullable: true, transformer: bigintToNumber }) lastBalanceAfter!: number | null;
}

/** The answer to a request that moved coins, kept so a repeated request id gets the same answer. */
@Entity("processed_requests")
@Index("idx_processed_requests_created", ["createdAt"])
export class ProcessedRequest {
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, LOCKED)
  @JoinColumn({ name: "player_id" })
  player?: Relation<Player>;
  @PrimaryColumn({ name: "request_id", type: "text" }) requestId!: string;
  @Column({ type: "jsonb" }) response!: unknown;
  /** bet, act, spin, rotate or client-seed; empty for answers stored before kinds were recorded. */
  @Column({ type: "text", default: "" }) kind!: string;
  /** SHA-256 of the canonical request, so a reused id with a different request is refused. */
  @Column({ type: "text", default: "" }) fingerprint!: string;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

/** A provably-fair seed pair. The server seed stays secret until the player rotates it. */
@Entity("fairness_seeds")
/** One active seed pair per player. */
@Index("uq_fairness_active_seed", ["playerId"], { unique: true, where: `active` })
/** Migration: (player_id, revealed_at DESC). */
@Index("idx_fairness_revealed", ["playerId", "revealedAt"], { where: `NOT active` })
@Index("idx_fairness_seed_hash", ["serverSeedHash"])
export class FairnessSeed {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("fairness_seeds", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "server_seed", type: "text", unique: true }) serverSeed!: string;
  @Column({ name: "server_seed_hash", type: "text" }) serverSeedHash!: string;
  @Column({ name: "client_seed", type: "text" }) clientSeed!: string;
  @Column({ type: "integer", default: 0 }) nonce!: number;
  @Column({ type: "boolean", default: true }) active!: boolean;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "revealed_at", type: "timestamptz", nullable: true }) revealedAt!: Date | null;
}

/** The player's next server seed: shown by its hash before the player picks the client seed it will serve. */
@Entity("next_server_seeds")
export class NextServerSeed {
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("next_server_seeds", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "server_seed", type: "text", unique: true }) serverSeed!: string;
  @Column({ name: "server_seed_hash", type: "text" }) serverSeedHash!: string;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

/**
 * A finished round (the spec's game_sessions), with what it takes to verify it. Partitioned by month on
 * `created_at` like the ledger (migration 1764100000017): the keys hold `created_at`.
 */
@Entity("game_sessions")
@Check("game_sessions_result_check", `result IN ('win','lose','push')`)
/**
 * A player's history; carries what the history's totals filter and sum, so they read the index alone.
 * Migration: (player_id, created_at DESC, id DESC) INCLUDE (game_type, result, bet_amount, payout).
 */
@Index("idx_game_sessions_player", ["playerId", "createdAt", "id", "gameType", "result", "betAmount", "payout"])
@Index("uq_game_sessions_seq", ["seq", "createdAt"], { unique: true })
@Index("idx_game_sessions_seed_nonce", ["seedId", "nonce"])
export class GameSession {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, LOCKED)
  @JoinColumn({ name: "player_id" })
  player?: Relation<Player>;
  @Column({ name: "game_type", type: "text" }) gameType!: string;
  @Column({ name: "bet_amount", type: "bigint", transformer: bigintToNumber }) betAmount!: number;
  /** The opening bet (bet_amount is the whole stake, doubles and raises included); null on older multi-step rounds. */
  @Column({ type: "bigint", nullable: true, transformer: bigintToNumber }) amount!: number | null;
  @Column({ type: "text" }) result!: RoundResult;
  @Column({ type: "bigint", transformer: bigintToNumber }) payout!: number;
  @Column({ name: "request_id", type: "text", nullable: true }) requestId!: string | null;
  @Column({ name: "seed_id", type: "uuid", nullable: true }) seedId!: string | null;
  @ManyToOne(() => FairnessSeed, { ...LOCKED, nullable: true })
  @JoinColumn({ name: "seed_id" })
  seed?: Relation<FairnessSeed> | null;
  @Column({ type: "integer", nullable: true }) nonce!: number | null;
  @Column({ type: "jsonb", nullable: true }) params!: unknown;
  @Column({ type: "jsonb", nullable: true }) actions!: unknown;
  @Column({ type: "jsonb", nullable: true }) outcome!: unknown;
  /** The payout rounding rule the round was played under (common fairness/rounding.ts): 1 for rounds stored before rules were. */
  @Column({ type: "integer", default: 1 }) rounding!: number;
  /** The partition key. */
  @CreateDateColumn({ name: "created_at", type: "timestamptz", primary: true }) createdAt!: Date;
  /** Commit order, for consuming finished rounds in order (progress, leaderboards). */
  @Column({ type: "bigint", generated: "increment", transformer: bigintToNumber }) seq!: number;
}

/** A multi-step round in progress: its bet is already debited, so it lives in the database. */
@Entity("open_rounds")
@Index("idx_open_rounds_last_action", ["lastActionAt"])
export class OpenRound {
  @PrimaryGeneratedColumn("uuid") id!: string;
  /** One open round per player. */
  @Column({ name: "player_id", type: "uuid", unique: true }) playerId!: string;
  @OneToOne(() => Player, { nullable: false })
  @JoinColumn(fk("open_rounds", "player_id"))
  player?: Relation<Player>;
  @Column({ type: "text" }) game!: string;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  @Column({ type: "bigint", transformer: bigintToNumber }) amount!: number;
  @Column({ type: "jsonb" }) params!: unknown;
  @Column({ type: "jsonb" }) actions!: unknown[];
  @Column({ type: "jsonb" }) state!: unknown;
  @Column({ name: "total_stake", type: "bigint", transformer: bigintToNumber }) totalStake!: number;
  @Column({ name: "total_payout", type: "bigint", transformer: bigintToNumber }) totalPayout!: number;
  @Column({ name: "seed_id", type: "uuid" }) seedId!: string;
  @ManyToOne(() => FairnessSeed, { nullable: false })
  @JoinColumn(fk("open_rounds", "seed_id"))
  seed?: Relation<FairnessSeed>;
  @Column({ type: "integer" }) nonce!: number;
  @Column({ type: "integer" }) cursor!: number;
  /** The payout rounding rule the round is played under, to its end. */
  @Column({ type: "integer", default: 1 }) rounding!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "last_action_at", type: "timestamptz", default: () => "now()" }) lastActionAt!: Date;
}

/**
 * Plays stored before `game_plays` became a view of `game_sessions` (migration 1764100000006) that no
 * round matched; nothing writes here any more. The spec's `game_plays` is the view: every round's id,
 * player, game and time, and these rows.
 */
@Entity("game_plays_legacy")
export class GamePlay {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("game_plays_legacy", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "game_type", type: "text" }) gameType!: string;
  @CreateDateColumn({ name: "played_at", type: "timestamptz" }) playedAt!: Date;
}

@Entity("player_tags")
@Unique("uq_player_tags_player_tag", ["playerId", "tagId"])
export class PlayerTag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("player_tags", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "tag_id", type: "integer" }) tagId!: number;
  @ManyToOne(() => Tag, { nullable: false })
  @JoinColumn(fk("player_tags", "tag_id"))
  tag?: Relation<Tag>;
  @Column({ type: "integer", default: 0 }) progress!: number;
  @Column({ type: "boolean", default: false }) unlocked!: boolean;
  @Column({ name: "unlocked_at", type: "timestamptz", nullable: true }) unlockedAt!: Date | null;
}

/** A skill round: the seed the server drew, the round's state, and the replayed result. */
@Entity("skill_rounds")
@Unique("uq_skill_rounds_request", ["playerId", "requestId"])
@Check("skill_rounds_game_check", `game IN ('dot-battle','dots')`)
@Check("skill_rounds_status_check", `status IN ('open','rewarded','refused','expired')`)
@Check("skill_rounds_kills_check", `kills >= 0`)
@Check("skill_rounds_completion_ms_check", `completion_ms > 0`)
@Check("skill_rounds_reward_check", `reward >= 0`)
@Check("ck_skill_rounds_refusal", `(status = 'refused') = (refusal_code IS NOT NULL AND refusal IS NOT NULL)`)
/** Migration: (player_id, started_at DESC). */
@Index("idx_skill_rounds_player", ["playerId", "startedAt"])
export class SkillRound {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("skill_rounds", "player_id"))
  player?: Relation<Player>;
  @Column({ type: "text" }) game!: SkillGame;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  @Column({ type: "text" }) seed!: string;
  @Column({ name: "played_on", type: "text" }) playedOn!: string;
  @Column({ type: "text", default: "open" }) status!: "open" | "rewarded" | "refused" | "expired";
  @Column({ name: "started_at", type: "timestamptz", default: () => "now()" }) startedAt!: Date;
  @Column({ name: "submitted_at", type: "timestamptz", nullable: true }) submittedAt!: Date | null;
  @Column({ type: "jsonb", nullable: true }) inputs!: unknown;
  @Column({ type: "integer", nullable: true }) kills!: number | null;
  @Column({ name: "completion_ms", type: "integer", nullable: true }) completionMs!: number | null;
  @Column({ type: "bigint", nullable: true, transformer: bigintToNumber }) reward!: number | null;
  @Column({ name: "refusal_code", type: "text", nullable: true }) refusalCode!: LogRefusal["code"] | null;
  @Column({ type: "text", nullable: true }) refusal!: string | null;
  /** The rules the submitted log was replayed under (Connect the Dots' `DOTS_RULES_VERSION`; 1 before a submission). */
  @Column({ name: "rules_version", type: "integer", default: 1 }) rulesVersion!: number;
}

@Entity("dots_speed_records")
@Check("dots_speed_records_completion_time_ms_check", `completion_time_ms > 0`)
@Index("idx_dots_speed_time", ["completionTimeMs", "createdAt"])
@Index("idx_dots_speed_player", ["playerId", "completionTimeMs"])
export class DotsSpeedRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("dots_speed_records", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "completion_time_ms", type: "integer" }) completionTimeMs!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  /** The round this record came from: a round adds at most one record. */
  @Column({ name: "round_id", type: "uuid", nullable: true, unique: true }) roundId!: string | null;
  @OneToOne(() => SkillRound, { nullable: true })
  @JoinColumn(fk("dots_speed_records", "round_id"))
  round?: Relation<SkillRound> | null;
}

@Entity("dot_battle_scores")
@Check("dot_battle_scores_kills_check", `kills >= 0`)
/** Migration: (kills DESC, created_at). */
@Index("idx_dot_battle_kills", ["kills", "createdAt"])
@Index("idx_dot_battle_player", ["playerId", "kills"])
export class DotBattleScore {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("dot_battle_scores", "player_id"))
  player?: Relation<Player>;
  @Column({ type: "integer" }) kills!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  /** The round this score came from: a round adds at most one score. */
  @Column({ name: "round_id", type: "uuid", nullable: true, unique: true }) roundId!: string | null;
  @OneToOne(() => SkillRound, { nullable: true })
  @JoinColumn(fk("dot_battle_scores", "round_id"))
  round?: Relation<SkillRound> | null;
}

@Entity("suggestions")
@Check("suggestions_text_check", `length(text) BETWEEN 1 AND 2000`)
@Check("suggestions_status_check", `status IN ('new','read','done')`)
/** Migration: (player_id, created_at DESC). */
@Index("idx_suggestions_player", ["playerId", "createdAt"])
export class Suggestion {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("suggestions", "player_id"))
  player?: Relation<Player>;
  @Column({ type: "text" }) text!: string;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  /** Marked by an operator (`npm run admin -- suggestions mark`). */
  @Column({ type: "text", default: "new" }) status!: "new" | "read" | "done";
  @Column({ name: "marked_at", type: "timestamptz", nullable: true }) markedAt!: Date | null;
  @Column({ name: "marked_by", type: "text", nullable: true }) markedBy!: string | null;
}

/** What an operator did (`npm run admin`), to whom, when and why; written in the transaction of the change. */
@Entity("admin_actions")
@Check("admin_actions_operator_check", `length(operator) BETWEEN 1 AND 100`)
@Check("admin_actions_action_check", `action IN ('grant','claw_back','suspend','restore','export','erase','mark_suggestion')`)
@Check("admin_actions_reason_check", `length(reason) BETWEEN 1 AND 500`)
@Index("idx_admin_actions_player", ["playerId", "id"])
export class AdminAction {
  @PrimaryColumn({ type: "bigint", transformer: bigintToNumber, generated: "identity", generatedIdentity: "ALWAYS" }) id!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ type: "text" }) operator!: string;
  @Column({ type: "text" }) action!: "grant" | "claw_back" | "suspend" | "restore" | "export" | "erase" | "mark_suggestion";
  @Column({ name: "player_id", type: "uuid", nullable: true }) playerId!: string | null;
  @ManyToOne(() => Player, { nullable: true })
  @JoinColumn(fk("admin_actions", "player_id"))
  player?: Relation<Player> | null;
  @Column({ type: "text" }) reason!: string;
  /** The operator's request id of a grant or claw-back (its ledger entry is `#admin:<id>#admin_adjustment`). */
  @Column({ name: "request_id", type: "text", nullable: true }) requestId!: string | null;
  @Column({ type: "bigint", nullable: true, transformer: bigintToNumber }) amount!: number | null;
  @Column({ type: "jsonb", nullable: true }) details!: unknown;
}

/** The guilds a player belongs to, from the token exchange (the guild leaderboard scope). */
@Entity("player_guilds")
@Index("idx_player_guilds_guild", ["guildId", "playerId"])
export class PlayerGuild {
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("player_guilds", "player_id"))
  player?: Relation<Player>;
  @PrimaryColumn({ name: "guild_id", type: "text" }) guildId!: string;
  @Column({ name: "refreshed_at", type: "timestamptz", default: () => "now()" }) refreshedAt!: Date;
}

/** Who joined an Activity instance (the instance leaderboard scope). */
@Entity("activity_instance_members")
/** Migration: (player_id, joined_at DESC). */
@Index("idx_instance_members_player", ["playerId", "joinedAt"])
export class ActivityInstanceMember {
  @PrimaryColumn({ name: "instance_id", type: "text" }) instanceId!: string;
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("activity_instance_members", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "guild_id", type: "text", nullable: true }) guildId!: string | null;
  @Column({ name: "channel_id", type: "text", nullable: true }) channelId!: string | null;
  @Column({ type: "boolean" }) verified!: boolean;
  @Column({ name: "joined_at", type: "timestamptz", default: () => "now()" }) joinedAt!: Date;
}

/** When a member first joined an activity instance's together room on a UTC day: where their tonight board starts. */
@Entity("tonight_joins")
@Index("idx_tonight_joins_player", ["playerId"])
export class TonightJoin {
  @PrimaryColumn({ name: "instance_id", type: "text" }) instanceId!: string;
  @PrimaryColumn({ type: "date" }) day!: string;
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("tonight_joins", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "joined_at", type: "timestamptz", default: () => "now()" }) joinedAt!: Date;
}

/**
 * A race of an activity instance: its schedule on the server's clock, the database times between which
 * settled rounds count, and once finished the final order (`standings`) and the winner.
 */
@Entity("tonight_races")
@Check("ck_tonight_races_minutes", `minutes IN (5, 10, 15)`)
@Check("ck_tonight_races_schedule", `started_at <= join_closes_at AND join_closes_at < ends_at`)
@Check("ck_tonight_races_finished", `(finished_at IS NULL) = (standings IS NULL) AND (finished_at IS NULL OR counted_until IS NOT NULL)`)
/** One race not finished per instance, whatever the number of processes. */
@Index("uq_tonight_races_open", ["instanceId"], { unique: true, where: `finished_at IS NULL` })
@Index("idx_tonight_races_instance", ["instanceId", "endsAt"])
export class TonightRace {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "instance_id", type: "text" }) instanceId!: string;
  @Column({ name: "started_by", type: "uuid" }) startedBy!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("tonight_races", "started_by"))
  starter?: Relation<Player>;
  @Column({ type: "integer" }) minutes!: number;
  @Column({ name: "started_at", type: "timestamptz" }) startedAt!: Date;
  @Column({ name: "join_closes_at", type: "timestamptz" }) joinClosesAt!: Date;
  @Column({ name: "ends_at", type: "timestamptz" }) endsAt!: Date;
  @Column({ name: "counted_from", type: "timestamptz", nullable: true }) countedFrom!: Date | null;
  @Column({ name: "counted_until", type: "timestamptz", nullable: true }) countedUntil!: Date | null;
  @Column({ name: "finished_at", type: "timestamptz", nullable: true }) finishedAt!: Date | null;
  @Column({ name: "winner_id", type: "uuid", nullable: true }) winnerId!: string | null;
  @ManyToOne(() => Player, { nullable: true })
  @JoinColumn(fk("tonight_races", "winner_id"))
  winner?: Relation<Player> | null;
  @Column({ type: "jsonb", nullable: true }) standings!: unknown;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

/** A member who joined a race. */
@Entity("tonight_race_members")
@Index("idx_tonight_race_members_player", ["playerId"])
export class TonightRaceMember {
  @PrimaryColumn({ name: "race_id", type: "uuid" }) raceId!: string;
  @ManyToOne(() => TonightRace, { nullable: false })
  @JoinColumn(fk("tonight_race_members", "race_id"))
  race?: Relation<TonightRace>;
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("tonight_race_members", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "joined_at", type: "timestamptz", default: () => "now()" }) joinedAt!: Date;
}

/** A player's progress counters, advanced incrementally from finished rounds. */
@Entity("player_progress")
export class PlayerProgress {
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("player_progress", "player_id"))
  player?: Relation<Player>;
  @Column({ type: "integer", default: 0 }) games!: number;
  @Column({ name: "card_games", type: "integer", default: 0 }) cardGames!: number;
  @Column({ name: "dice_games", type: "integer", default: 0 }) diceGames!: number;
  @Column({ name: "current_win_streak", type: "integer", default: 0 }) currentWinStreak!: number;
  @Column({ name: "best_win_streak", type: "integer", default: 0 }) bestWinStreak!: number;
  @Column({ name: "peak_balance", type: "bigint", default: 0, transformer: bigintToNumber }) peakBalance!: number;
  @Column({ name: "last_session_seq", type: "bigint", default: 0, transformer: bigintToNumber }) lastSessionSeq!: number;
  @Column({ name: "updated_at", type: "timestamptz", default: () => "now()" }) updatedAt!: Date;
}

/** How many rounds of each game a player has played. */
@Entity("player_game_counts")
export class PlayerGameCount {
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("player_game_counts", "player_id"))
  player?: Relation<Player>;
  @PrimaryColumn({ name: "game_type", type: "text" }) gameType!: string;
  @Column({ type: "bigint", default: 0, transformer: bigintToNumber }) plays!: number;
}

/** How many rounds of each game everyone has played. */
@Entity("game_play_counts")
export class GamePlayCount {
  @PrimaryColumn({ name: "game_type", type: "text" }) gameType!: string;
  @Column({ type: "bigint", default: 0, transformer: bigintToNumber }) plays!: number;
}

/** Where each consumer of game_sessions.seq has got to. */
@Entity("consumer_cursors")
export class ConsumerCursor {
  @PrimaryColumn({ type: "text" }) name!: string;
  @Column({ type: "bigint", default: 0, transformer: bigintToNumber }) position!: number;
}

/** A crash hash chain; one in use per room scope. */
@Entity("crash_chains")
@Check("crash_chains_length_check", `length > 0`)
/** PostgreSQL named this column CHECK after the table alone, as it reads two columns. */
@Check("crash_chains_check", `next_game BETWEEN 1 AND length + 1`)
/** One chain in use per scope: two processes can never both start one. */
@Index("uq_crash_chains_active_scope", ["scope"], { unique: true, where: `exhausted_at IS NULL` })
export class CrashChain {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ type: "text" }) scope!: string;
  @Column({ type: "text" }) seed!: string;
  @Column({ name: "terminating_hash", type: "text", unique: true }) terminatingHash!: string;
  @Column({ type: "text" }) salt!: string;
  @Column({ type: "integer" }) length!: number;
  @Column({ name: "next_game", type: "integer", default: 1 }) nextGame!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "exhausted_at", type: "timestamptz", nullable: true }) exhaustedAt!: Date | null;
}

/** A crash round: its phase and the process that runs it. */
@Entity("crash_rounds")
@Unique("uq_crash_rounds_game", ["chainId", "gameNumber"])
@Check("crash_rounds_game_number_check", `game_number >= 1`)
@Check("crash_rounds_crash_point_check", `crash_point >= 100`)
@Check("crash_rounds_phase_check", `phase IN ('betting','running','busted','void')`)
@Check("crash_rounds_settled_by_check", `settled_by IN ('bust','restart')`)
/** At most one round in play per scope, whatever the number of processes. */
@Index("uq_crash_rounds_open_scope", ["scope"], { unique: true, where: `phase IN ('betting','running')` })
/** Migration: (scope, ended_at DESC). */
@Index("idx_crash_rounds_history", ["scope", "endedAt"], { where: `phase IN ('busted','void')` })
export class CrashRound {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "chain_id", type: "uuid" }) chainId!: string;
  @ManyToOne(() => CrashChain, { nullable: false })
  @JoinColumn(fk("crash_rounds", "chain_id"))
  chain?: Relation<CrashChain>;
  @Column({ name: "game_number", type: "integer" }) gameNumber!: number;
  @Column({ type: "text" }) scope!: string;
  @Column({ name: "game_hash", type: "text" }) gameHash!: string;
  /** In hundredths (250 = 2.50×). */
  @Column({ name: "crash_point", type: "bigint", transformer: bigintToNumber }) crashPoint!: number;
  @Column({ type: "text" }) phase!: "betting" | "running" | "busted" | "void";
  /** The payout rounding rule of the round's cash-outs: 1 for rounds stored before rules were. */
  @Column({ type: "integer", default: 1 }) rounding!: number;
  @Column({ name: "settled_by", type: "text", nullable: true }) settledBy!: "bust" | "restart" | null;
  @Column({ type: "text" }) owner!: string;
  @Column({ name: "lease_until", type: "timestamptz" }) leaseUntil!: Date;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "running_at", type: "timestamptz", nullable: true }) runningAt!: Date | null;
  @Column({ name: "ended_at", type: "timestamptz", nullable: true }) endedAt!: Date | null;
}

/** A bet on a crash round, settled exactly once. */
@Entity("crash_bets")
@Unique("uq_crash_bets_round_player", ["roundId", "playerId"])
@Check("crash_bets_amount_check", `amount > 0`)
@Check("crash_bets_auto_cash_out_check", `auto_cash_out >= 101`)
@Check("crash_bets_status_check", `status IN ('active','cashed_out','lost','refunded')`)
@Check("crash_bets_payout_check", `payout >= 0`)
@Check("crash_bets_settled_by_check", `settled_by IN ('player','auto','bust','restart')`)
@Check("ck_crash_bets_cash_out", `(status = 'cashed_out') = (cashed_out_at IS NOT NULL)`)
@Check("ck_crash_bets_settled", `(status = 'active') = (settled_at IS NULL)`)
@Index("idx_crash_bets_active", ["roundId"], { where: `status = 'active'` })
/** Migration: (player_id, created_at DESC). */
@Index("idx_crash_bets_player", ["playerId", "createdAt"])
export class CrashBet {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "round_id", type: "uuid" }) roundId!: string;
  @ManyToOne(() => CrashRound, { nullable: false })
  @JoinColumn(fk("crash_bets", "round_id"))
  round?: Relation<CrashRound>;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("crash_bets", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  @Column({ type: "bigint", transformer: bigintToNumber }) amount!: number;
  /** In hundredths. */
  @Column({ name: "auto_cash_out", type: "bigint", nullable: true, transformer: bigintToNumber }) autoCashOut!: number | null;
  @Column({ type: "text", default: "active" }) status!: "active" | "cashed_out" | "lost" | "refunded";
  /** In hundredths. */
  @Column({ name: "cashed_out_at", type: "bigint", nullable: true, transformer: bigintToNumber }) cashedOutAt!: number | null;
  @Column({ type: "bigint", default: 0, transformer: bigintToNumber }) payout!: number;
  @Column({ name: "settled_by", type: "text", nullable: true }) settledBy!: "player" | "auto" | "bust" | "restart" | null;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "settled_at", type: "timestamptz", nullable: true }) settledAt!: Date | null;
}

/** A shoe of the shared blackjack table: its server seed (secret until it is finished) and the process dealing it. */
@Entity("table_shoes")
@Check("table_shoes_rounding_check", `rounding IN (1, 2)`)
@Check("table_shoes_finished_by_check", `finished_by IN ('cut_card','closed','restart')`)
@Check("ck_table_shoes_finished", `(finished_at IS NULL) = (finished_by IS NULL)`)
/** One shoe being dealt per table, whatever the number of processes. */
@Index("uq_table_shoes_live", ["tableId"], { unique: true, where: `finished_at IS NULL` })
@Index("idx_table_shoes_lease", ["leaseUntil"], { where: `finished_at IS NULL` })
export class TableShoe {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "table_id", type: "text" }) tableId!: string;
  @Column({ name: "server_seed", type: "text" }) serverSeed!: string;
  @Column({ name: "server_seed_hash", type: "text", unique: true }) serverSeedHash!: string;
  /** The seats' client seeds, once the shoe's first round is dealt. */
  @Column({ type: "jsonb", nullable: true }) seats!: unknown;
  @Column({ type: "integer" }) rounding!: number;
  @Column({ type: "text" }) owner!: string;
  @Column({ name: "lease_until", type: "timestamptz" }) leaseUntil!: Date;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "finished_at", type: "timestamptz", nullable: true }) finishedAt!: Date | null;
  @Column({ name: "finished_by", type: "text", nullable: true }) finishedBy!: "cut_card" | "closed" | "restart" | null;
}

/** A round of a table shoe: the actions applied, in order. */
@Entity("table_rounds")
@Unique("uq_table_rounds_round", ["shoeId", "round"])
@Check("table_rounds_round_check", `round >= 1`)
@Check("table_rounds_phase_check", `phase IN ('betting','playing','settled','void')`)
@Check("table_rounds_settled_by_check", `settled_by IN ('table','restart')`)
@Index("uq_table_rounds_open", ["shoeId"], { unique: true, where: `phase IN ('betting','playing')` })
export class TableRound {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "shoe_id", type: "uuid" }) shoeId!: string;
  @ManyToOne(() => TableShoe, { nullable: false })
  @JoinColumn(fk("table_rounds", "shoe_id"))
  shoe?: Relation<TableShoe>;
  @Column({ type: "integer" }) round!: number;
  @Column({ type: "text" }) phase!: "betting" | "playing" | "settled" | "void";
  @Column({ type: "jsonb" }) actions!: unknown;
  @Column({ name: "settled_by", type: "text", nullable: true }) settledBy!: "table" | "restart" | null;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "dealt_at", type: "timestamptz", nullable: true }) dealtAt!: Date | null;
  @Column({ name: "ended_at", type: "timestamptz", nullable: true }) endedAt!: Date | null;
}

/** A seat's bet in a table round: everything it staked, settled exactly once. */
@Entity("table_bets")
@Unique("uq_table_bets_seat", ["roundId", "seat"])
@Unique("uq_table_bets_player", ["roundId", "playerId"])
@Check("table_bets_seat_check", `seat BETWEEN 1 AND 7`)
@Check("table_bets_amount_check", `amount > 0`)
/** PostgreSQL named this column CHECK after the table alone, as it reads two columns. */
@Check("table_bets_check", `staked >= amount`)
@Check("table_bets_payout_check", `payout >= 0`)
@Check("table_bets_status_check", `status IN ('active','settled','refunded')`)
@Check("ck_table_bets_settled", `(status = 'active') = (settled_at IS NULL)`)
@Index("idx_table_bets_active", ["roundId"], { where: `status = 'active'` })
/** Migration: (player_id, created_at DESC). */
@Index("idx_table_bets_player", ["playerId", "createdAt"])
export class TableBetRow {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "round_id", type: "uuid" }) roundId!: string;
  @ManyToOne(() => TableRound, { nullable: false })
  @JoinColumn(fk("table_bets", "round_id"))
  round?: Relation<TableRound>;
  @Column({ type: "integer" }) seat!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("table_bets", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  @Column({ type: "bigint", transformer: bigintToNumber }) amount!: number;
  @Column({ type: "bigint", transformer: bigintToNumber }) staked!: number;
  @Column({ type: "bigint", default: 0, transformer: bigintToNumber }) payout!: number;
  @Column({ type: "text", default: "active" }) status!: "active" | "settled" | "refunded";
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "settled_at", type: "timestamptz", nullable: true }) settledAt!: Date | null;
}

/** A Hold'em table a room opened: the process running it holds its lease. */
@Entity("holdem_tables")
@Check("holdem_tables_closed_by_check", `closed_by IN ('closed','restart')`)
@Check("ck_holdem_tables_closed", `(closed_at IS NULL) = (closed_by IS NULL)`)
@Index("idx_holdem_tables_lease", ["leaseUntil"], { where: `closed_at IS NULL` })
export class HoldemTableRow {
  @PrimaryGeneratedColumn("uuid") id!: string;
  /** The room's scope: `instance:<instanceId>` or `public`. */
  @Column({ type: "text" }) scope!: string;
  @Column({ type: "text" }) owner!: string;
  @Column({ name: "lease_until", type: "timestamptz" }) leaseUntil!: Date;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "closed_at", type: "timestamptz", nullable: true }) closedAt!: Date | null;
  @Column({ name: "closed_by", type: "text", nullable: true }) closedBy!: "closed" | "restart" | null;
}

/** A player's seat at a Hold'em table, from the buy-in to the cash-out: the stack as of the last hand over. */
@Entity("holdem_seats")
@Check("holdem_seats_seat_check", `seat BETWEEN 1 AND 9`)
@Check("holdem_seats_buy_in_check", `buy_in > 0`)
@Check("holdem_seats_stack_check", `stack >= 0`)
@Check("holdem_seats_cashed_out_check", `cashed_out >= 0`)
@Check("ck_holdem_seats_left", `(left_at IS NULL) = (cashed_out IS NULL)`)
@Index("uq_holdem_seats_seat", ["tableId", "seat"], { unique: true, where: `left_at IS NULL` })
@Index("uq_holdem_seats_player", ["tableId", "playerId"], { unique: true, where: `left_at IS NULL` })
/** Migration: (player_id, created_at DESC). */
@Index("idx_holdem_seats_player", ["playerId", "createdAt"])
export class HoldemSeatRow {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "table_id", type: "uuid" }) tableId!: string;
  @ManyToOne(() => HoldemTableRow, { nullable: false })
  @JoinColumn(fk("holdem_seats", "table_id"))
  table?: Relation<HoldemTableRow>;
  @Column({ type: "integer" }) seat!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("holdem_seats", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  @Column({ name: "buy_in", type: "bigint", transformer: bigintToNumber }) buyIn!: number;
  @Column({ type: "bigint", transformer: bigintToNumber }) stack!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "left_at", type: "timestamptz", nullable: true }) leftAt!: Date | null;
  @Column({ name: "cashed_out", type: "bigint", nullable: true, transformer: bigintToNumber }) cashedOut!: number | null;
}

/** A Hold'em hand: its seeds and start, then its actions and result (or void, by the restart rule). */
@Entity("holdem_hands")
@Unique("uq_holdem_hands_number", ["tableId", "handNumber"])
@Check("holdem_hands_hand_number_check", `hand_number >= 1`)
@Check("holdem_hands_phase_check", `phase IN ('playing','complete','void')`)
@Check("ck_holdem_hands_ended", `(phase = 'playing') = (ended_at IS NULL)`)
@Index("uq_holdem_hands_open", ["tableId"], { unique: true, where: `phase = 'playing'` })
export class HoldemHandRow {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "table_id", type: "uuid" }) tableId!: string;
  @ManyToOne(() => HoldemTableRow, { nullable: false })
  @JoinColumn(fk("holdem_hands", "table_id"))
  table?: Relation<HoldemTableRow>;
  @Column({ name: "hand_number", type: "integer" }) handNumber!: number;
  @Column({ name: "server_seed", type: "text" }) serverSeed!: string;
  @Column({ name: "server_seed_hash", type: "text", unique: true }) serverSeedHash!: string;
  @Column({ type: "jsonb" }) seeds!: unknown;
  @Column({ type: "jsonb" }) start!: unknown;
  @Column({ type: "text" }) phase!: "playing" | "complete" | "void";
  @Column({ type: "jsonb", nullable: true }) actions!: unknown;
  @Column({ type: "jsonb", nullable: true }) result!: unknown;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "ended_at", type: "timestamptz", nullable: true }) endedAt!: Date | null;
}

/** A seat dealt into a finished Hold'em hand: its player, what it put in and what it won (the history's row). */
@Entity("holdem_hand_players")
@Unique("uq_holdem_hand_players_player", ["handId", "playerId"])
@Check("holdem_hand_players_seat_check", `seat BETWEEN 1 AND 9`)
@Check("holdem_hand_players_put_in_check", `put_in >= 0`)
@Check("holdem_hand_players_won_check", `won >= 0`)
/** Migration: (player_id, created_at DESC). */
@Index("idx_holdem_hand_players_player", ["playerId", "createdAt"])
export class HoldemHandPlayerRow {
  @PrimaryColumn({ name: "hand_id", type: "uuid" }) handId!: string;
  @ManyToOne(() => HoldemHandRow, { nullable: false })
  @JoinColumn(fk("holdem_hand_players", "hand_id"))
  hand?: Relation<HoldemHandRow>;
  @PrimaryColumn({ type: "integer" }) seat!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn(fk("holdem_hand_players", "player_id"))
  player?: Relation<Player>;
  @Column({ name: "put_in", type: "bigint", transformer: bigintToNumber }) putIn!: number;
  @Column({ type: "bigint", transformer: bigintToNumber }) won!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

export const ENTITIES = [
  Tag,
  Player,
  LedgerEntry,
  AccountTransfer,
  ArchivedPartition,
  LedgerCheckpoint,
  ProcessedRequest,
  FairnessSeed,
  NextServerSeed,
  GameSession,
  OpenRound,
  GamePlay,
  PlayerTag,
  SkillRound,
  DotsSpeedRecord,
  DotBattleScore,
  Suggestion,
  PlayerGuild,
  ActivityInstanceMember,
  TonightJoin,
  TonightRace,
  TonightRaceMember,
  PlayerProgress,
  PlayerGameCount,
  GamePlayCount,
  ConsumerCursor,
  CrashChain,
  CrashRound,
  CrashBet,
  TableShoe,
  TableRound,
  TableBetRow,
  HoldemTableRow,
  HoldemSeatRow,
  HoldemHandRow,
  HoldemHandPlayerRow,
  AdminAction,
];
