import { randomBytes } from "node:crypto";
import type { MigrationInterface, QueryRunner } from "typeorm";
import { seedCommitment } from "@casino/common";

/** Commits a next server seed for every player who has none (players created before pre-commitment). */
export class CommitNextSeeds1763800000001 implements MigrationInterface {
  name = "CommitNextSeeds1763800000001";

  async up(q: QueryRunner): Promise<void> {
    for (;;) {
      const rows: { id: string }[] = await q.query(
        `SELECT p.id FROM players p WHERE NOT EXISTS (SELECT 1 FROM next_server_seeds n WHERE n.player_id = p.id) LIMIT 1000`,
      );
      if (rows.length === 0) return;
      const seeds = rows.map(() => randomBytes(32).toString("hex"));
      await q.query(
        `INSERT INTO next_server_seeds (player_id, server_seed, server_seed_hash)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[])`,
        [rows.map((r) => r.id), seeds, seeds.map(seedCommitment)],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM next_server_seeds`);
  }
}
