import type { MigrationInterface, QueryRunner } from "typeorm";
import { TAG_SEEDS } from "@casino/common/tags";

/** The starting set of tags, one ladder per objective type of the spec. */
export class SeedTags1763700000001 implements MigrationInterface {
  name = "SeedTags1763700000001";

  async up(q: QueryRunner): Promise<void> {
    for (const [i, tag] of TAG_SEEDS.entries()) {
      await q.query(
        `INSERT INTO tags (name, description, objective_type, objective_criteria, sort_order) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (name) DO NOTHING`,
        [tag.name, tag.description, tag.objectiveType, tag.objectiveCriteria, i],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM tags WHERE name = ANY($1)`, [TAG_SEEDS.map((t) => t.name)]);
  }
}
