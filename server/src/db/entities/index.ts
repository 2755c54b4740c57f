import {
  Column,
  CreateDateColumn,
  Entity,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Unique,
} from "typeorm";
import { bigintToNumber } from "./transformers";

/** A player: a Discord user or a guest. `balance` is written only by the ledger. */
@Entity("players")
export class Player {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "discord_id", type: "text", unique: true }) discordId!: string;
  @Column({ type: "text" }) username!: string;
  @Column({ name: "avatar_url", type: "text", nullable: true }) avatarUrl!: string | null;
  @Column({ type: "bigint", transformer: bigintToNumber }) balance!: number;
  @Column({ name: "active_tag_id", type: "integer", nullable: true }) activeTagId!: number | null;
  @Column({ name: "anonymous_mode", type: "boolean", default: false }) anonymousMode!: boolean;
  @Column({ name: "theme_mode", type: "text", default: "dark" }) themeMode!: string;
  @Column({ name: "theme_color", type: "text", default: "200 60% 55%" }) themeColor!: string;
  @Column({ name: "last_daily_spin", type: "timestamptz", nullable: true }) lastDailySpin!: Date | null;
  @Column({ name: "daily_spin_reminder", type: "boolean", default: false }) dailySpinReminder!: boolean;
  @Column({ name: "last_reminder_sent", type: "timestamptz", nullable: true }) lastReminderSent!: Date | null;
  @Column({ name: "tos_accepted_version", type: "text", nullable: true }) tosAcceptedVersion!: string | null;
  @Column({ name: "dots_games_played_today", type: "integer", default: 0 }) dotsGamesPlayedToday!: number;
  @Column({ name: "dots_last_played_date", type: "text", nullable: true }) dotsLastPlayedDate!: string | null;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  /** Last money request or room join; idle guests are archived after a while (README, "Retention"). */
  @Column({ name: "last_seen_at", type: "timestamptz", default: () => "now()" }) lastSeenAt!: Date;
  /** An archived guest keeps its rows, but its session no longer works. */
  @Column({ name: "archived_at", type: "timestamptz", nullable: true }) archivedAt!: Date | null;
}

/** Append-only: every coin that moves has a row here; a player's balance is the sum of their deltas. */
@Entity("ledger_entries")
@Unique("uq_ledger_player_request", ["playerId", "requestId"])
export class LedgerEntry {
  @PrimaryColumn({ type: "bigint", transformer: bigintToNumber, generated: "identity" }) id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @Column({ type: "bigint", transformer: bigintToNumber }) delta!: number;
  @Column({ name: "balance_after", type: "bigint", transformer: bigintToNumber }) balanceAfter!: number;
  @Column({ type: "text" }) reason!: string;
  @Column({ type: "text", nullable: true }) reference!: string | null;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

/** The answer to a request that moved coins, kept so a repeated request id gets the same answer. */
@Entity("processed_requests")
export class ProcessedRequest {
  @PrimaryColumn({ name: "player_id", type: "uuid" }) playerId!: string;
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
export class FairnessSeed {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @Column({ name: "server_seed", type: "text" }) serverSeed!: string;
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
  @Column({ name: "server_seed", type: "text" }) serverSeed!: string;
  @Column({ name: "server_seed_hash", type: "text" }) serverSeedHash!: string;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

/** A finished round (the spec's game_sessions), with what it takes to verify it. */
@Entity("game_sessions")
export class GameSession {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @Column({ name: "game_type", type: "text" }) gameType!: string;
  @Column({ name: "bet_amount", type: "bigint", transformer: bigintToNumber }) betAmount!: number;
  @Column({ type: "text" }) result!: string;
  @Column({ type: "bigint", transformer: bigintToNumber }) payout!: number;
  @Column({ name: "request_id", type: "text", nullable: true }) requestId!: string | null;
  @Column({ name: "seed_id", type: "uuid", nullable: true }) seedId!: string | null;
  @Column({ type: "integer", nullable: true }) nonce!: number | null;
  @Column({ type: "jsonb", nullable: true }) params!: unknown;
  @Column({ type: "jsonb", nullable: true }) actions!: unknown;
  @Column({ type: "jsonb", nullable: true }) outcome!: unknown;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

/** A multi-step round in progress: its bet is already debited, so it lives in the database. */
@Entity("open_rounds")
export class OpenRound {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "player_id", type: "uuid", unique: true }) playerId!: string;
  @Column({ type: "text" }) game!: string;
  @Column({ name: "request_id", type: "text" }) requestId!: string;
  @Column({ type: "bigint", transformer: bigintToNumber }) amount!: number;
  @Column({ type: "jsonb" }) params!: unknown;
  @Column({ type: "jsonb" }) actions!: unknown[];
  @Column({ type: "jsonb" }) state!: unknown;
  @Column({ name: "total_stake", type: "bigint", transformer: bigintToNumber }) totalStake!: number;
  @Column({ name: "total_payout", type: "bigint", transformer: bigintToNumber }) totalPayout!: number;
  @Column({ name: "seed_id", type: "uuid" }) seedId!: string;
  @Column({ type: "integer" }) nonce!: number;
  @Column({ type: "integer" }) cursor!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
  @Column({ name: "last_action_at", type: "timestamptz", default: () => "now()" }) lastActionAt!: Date;
}

@Entity("game_plays")
export class GamePlay {
  @PrimaryGeneratedColumn("uuid") id!: string;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @Column({ name: "game_type", type: "text" }) gameType!: string;
  @CreateDateColumn({ name: "played_at", type: "timestamptz" }) playedAt!: Date;
}

@Entity("tags")
export class Tag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: "text", unique: true }) name!: string;
  @Column({ type: "text" }) description!: string;
  @Column({ name: "objective_type", type: "text" }) objectiveType!: string;
  @Column({ name: "objective_criteria", type: "integer" }) objectiveCriteria!: number;
  @Column({ name: "sort_order", type: "integer", default: 0 }) sortOrder!: number;
  @Column({ name: "custom_for_discord_id", type: "text", nullable: true }) customForDiscordId!: string | null;
}

@Entity("player_tags")
@Unique("uq_player_tags_player_tag", ["playerId", "tagId"])
export class PlayerTag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @Column({ name: "tag_id", type: "integer" }) tagId!: number;
  @Column({ type: "integer", default: 0 }) progress!: number;
  @Column({ type: "boolean", default: false }) unlocked!: boolean;
  @Column({ name: "unlocked_at", type: "timestamptz", nullable: true }) unlockedAt!: Date | null;
}

@Entity("dots_speed_records")
export class DotsSpeedRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @Column({ name: "completion_time_ms", type: "integer" }) completionTimeMs!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

@Entity("dot_battle_scores")
export class DotBattleScore {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @Column({ type: "integer" }) kills!: number;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

@Entity("suggestions")
export class Suggestion {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: "player_id", type: "uuid" }) playerId!: string;
  @Column({ type: "text" }) text!: string;
  @CreateDateColumn({ name: "created_at", type: "timestamptz" }) createdAt!: Date;
}

export const ENTITIES = [
  Player,
  LedgerEntry,
  ProcessedRequest,
  FairnessSeed,
  NextServerSeed,
  GameSession,
  OpenRound,
  GamePlay,
  Tag,
  PlayerTag,
  DotsSpeedRecord,
  DotBattleScore,
  Suggestion,
];
