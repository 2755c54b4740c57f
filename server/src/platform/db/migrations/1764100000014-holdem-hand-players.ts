import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Each finished Hold'em hand's players (docs/architecture/holdem.md, "In the history"): one row per seat
 * dealt in, written in the transaction that writes the hand's result, with what the seat put in and what
 * it won (its net is won - put_in). A player's history reads their hands from here, newest first, by
 * (player_id, created_at DESC), as it reads rounds from `game_sessions`.
 */
export class HoldemHandPlayers1764100000014 implements MigrationInterface {
  name = "HoldemHandPlayers1764100000014";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE holdem_hand_players (
        hand_id uuid NOT NULL REFERENCES holdem_hands(id),
        seat integer NOT NULL CHECK (seat BETWEEN 1 AND 9),
        player_id uuid NOT NULL REFERENCES players(id),
        put_in bigint NOT NULL CHECK (put_in >= 0),
        won bigint NOT NULL CHECK (won >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (hand_id, seat),
        CONSTRAINT uq_holdem_hand_players_player UNIQUE (hand_id, player_id)
      )`);
    await q.query(`CREATE INDEX idx_holdem_hand_players_player ON holdem_hand_players (player_id, created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE holdem_hand_players`);
  }
}
