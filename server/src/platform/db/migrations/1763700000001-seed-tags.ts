import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The starting set of tags, one ladder per objective type of the spec, written out here so what this
 * migration inserts never changes after it has run somewhere. Later changes to tags are new migrations.
 * Each row: name, description, objective type, objective criteria; the sort order is its place here.
 */
const TAGS: readonly (readonly [name: string, description: string, objectiveType: string, objectiveCriteria: number])[] = [
  ["Newcomer", "Played a first game at the casino.", "first_game", 1],
  ["Regular", "A familiar face at the tables.", "total_games", 50],
  ["Veteran", "Hundreds of rounds and still going.", "total_games", 250],
  ["Legend", "A thousand games played.", "total_games", 1000],
  ["Comfortable", "Built a bankroll of 5,000 coins.", "balance", 5000],
  ["High Roller", "Reached 25,000 coins.", "balance", 25000],
  ["Tycoon", "Reached 100,000 coins.", "balance", 100000],
  ["Hot Hand", "Won three games in a row.", "win_streak", 3],
  ["On Fire", "Won five games in a row.", "win_streak", 5],
  ["Unstoppable", "Won ten games in a row.", "win_streak", 10],
  ["Card Shark", "Played 25 card games.", "card_games", 25],
  ["Card Master", "Played 100 card games.", "card_games", 100],
  ["Dice Roller", "Played 25 dice games.", "dice_games", 25],
  ["Dice Master", "Played 100 dice games.", "dice_games", 100],
];

export class SeedTags1763700000001 implements MigrationInterface {
  name = "SeedTags1763700000001";

  async up(q: QueryRunner): Promise<void> {
    for (const [i, [name, description, objectiveType, objectiveCriteria]] of TAGS.entries()) {
      await q.query(
        `INSERT INTO tags (name, description, objective_type, objective_criteria, sort_order) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (name) DO NOTHING`,
        [name, description, objectiveType, objectiveCriteria, i],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM tags WHERE name = ANY($1)`, [TAGS.map(([name]) => name)]);
  }
}
