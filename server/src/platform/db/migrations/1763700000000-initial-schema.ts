import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The whole schema of the foundation. Plain SQL that runs on PostgreSQL and on PGlite alike
 * (gen_random_uuid is built in since PostgreSQL 13, so no extension is created).
 */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = "InitialSchema1763700000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tags (
        id serial PRIMARY KEY,
        name text NOT NULL UNIQUE,
        description text NOT NULL,
        objective_type text NOT NULL,
        objective_criteria integer NOT NULL CHECK (objective_criteria >= 0),
        sort_order integer NOT NULL DEFAULT 0,
        custom_for_discord_id text
      )`);
    await q.query(`
      CREATE TABLE players (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        discord_id text NOT NULL UNIQUE,
        username text NOT NULL,
        avatar_url text,
        balance bigint NOT NULL DEFAULT 0 CHECK (balance >= 0),
        active_tag_id integer REFERENCES tags(id) ON DELETE SET NULL,
        anonymous_mode boolean NOT NULL DEFAULT false,
        theme_mode text NOT NULL DEFAULT 'dark',
        theme_color text NOT NULL DEFAULT '200 60% 55%',
        last_daily_spin timestamptz,
        daily_spin_reminder boolean NOT NULL DEFAULT false,
        last_reminder_sent timestamptz,
        tos_accepted_version text,
        dots_games_played_today integer NOT NULL DEFAULT 0,
        dots_last_played_date text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Ranks: balance descending among ranked (non-guest) players.
    await q.query(`CREATE INDEX idx_players_rank ON players (balance DESC, created_at) WHERE discord_id NOT LIKE 'guest-%'`);
    await q.query(`
      CREATE TABLE ledger_entries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        player_id uuid NOT NULL REFERENCES players(id),
        delta bigint NOT NULL,
        balance_after bigint NOT NULL CHECK (balance_after >= 0),
        reason text NOT NULL CHECK (reason IN ('grant','bet','payout','refund','daily_spin','reward')),
        reference text,
        request_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_ledger_player_request UNIQUE (player_id, request_id)
      )`);
    await q.query(`CREATE INDEX idx_ledger_player ON ledger_entries (player_id, id)`);
    await q.query(`
      CREATE TABLE processed_requests (
        player_id uuid NOT NULL REFERENCES players(id),
        request_id text NOT NULL,
        response jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (player_id, request_id)
      )`);
    await q.query(`
      CREATE TABLE fairness_seeds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        player_id uuid NOT NULL REFERENCES players(id),
        server_seed text NOT NULL UNIQUE,
        server_seed_hash text NOT NULL,
        client_seed text NOT NULL,
        nonce integer NOT NULL DEFAULT 0,
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        revealed_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX uq_fairness_active_seed ON fairness_seeds (player_id) WHERE active`);
    await q.query(`CREATE INDEX idx_fairness_revealed ON fairness_seeds (player_id, revealed_at DESC) WHERE NOT active`);
    await q.query(`
      CREATE TABLE game_sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        player_id uuid NOT NULL REFERENCES players(id),
        game_type text NOT NULL,
        bet_amount bigint NOT NULL,
        result text NOT NULL CHECK (result IN ('win','lose','push')),
        payout bigint NOT NULL,
        request_id text,
        seed_id uuid REFERENCES fairness_seeds(id),
        nonce integer,
        params jsonb,
        actions jsonb,
        outcome jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_game_sessions_player ON game_sessions (player_id, created_at DESC, id DESC)`);
    await q.query(`
      CREATE TABLE open_rounds (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        player_id uuid NOT NULL UNIQUE REFERENCES players(id),
        game text NOT NULL,
        request_id text NOT NULL,
        amount bigint NOT NULL,
        params jsonb NOT NULL,
        actions jsonb NOT NULL,
        state jsonb NOT NULL,
        total_stake bigint NOT NULL,
        total_payout bigint NOT NULL,
        seed_id uuid NOT NULL REFERENCES fairness_seeds(id),
        nonce integer NOT NULL,
        cursor integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE game_plays (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        player_id uuid NOT NULL REFERENCES players(id),
        game_type text NOT NULL,
        played_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_game_plays_type ON game_plays (game_type)`);
    await q.query(`CREATE INDEX idx_game_plays_player ON game_plays (player_id, game_type)`);
    await q.query(`
      CREATE TABLE player_tags (
        id serial PRIMARY KEY,
        player_id uuid NOT NULL REFERENCES players(id),
        tag_id integer NOT NULL REFERENCES tags(id),
        progress integer NOT NULL DEFAULT 0,
        unlocked boolean NOT NULL DEFAULT false,
        unlocked_at timestamptz,
        CONSTRAINT uq_player_tags_player_tag UNIQUE (player_id, tag_id)
      )`);
    await q.query(`
      CREATE TABLE dots_speed_records (
        id serial PRIMARY KEY,
        player_id uuid NOT NULL REFERENCES players(id),
        completion_time_ms integer NOT NULL CHECK (completion_time_ms > 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_dots_speed_time ON dots_speed_records (completion_time_ms, created_at)`);
    await q.query(`
      CREATE TABLE dot_battle_scores (
        id serial PRIMARY KEY,
        player_id uuid NOT NULL REFERENCES players(id),
        kills integer NOT NULL CHECK (kills >= 0),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_dot_battle_kills ON dot_battle_scores (kills DESC, created_at)`);
    await q.query(`
      CREATE TABLE suggestions (
        id serial PRIMARY KEY,
        player_id uuid NOT NULL REFERENCES players(id),
        text text NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX idx_suggestions_player ON suggestions (player_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [
      "suggestions",
      "dot_battle_scores",
      "dots_speed_records",
      "player_tags",
      "game_plays",
      "open_rounds",
      "game_sessions",
      "fairness_seeds",
      "processed_requests",
      "ledger_entries",
      "players",
      "tags",
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
  }
}
