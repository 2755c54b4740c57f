import type { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Whether the player has picked light or dark (`PATCH /api/player/theme` with a mode): until then the
 * client follows the device's light/dark preference instead of the record's default. A player who
 * saved a theme other than the defaults (a light mode or another colour) chose it: those rows are marked
 * chosen, the rest (defaults never changed, as far as the record can tell) follow their device.
 */
export class ThemeModeChosen1764100000009 implements MigrationInterface {
  name = "ThemeModeChosen1764100000009";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players ADD COLUMN theme_mode_chosen boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE players SET theme_mode_chosen = true WHERE theme_mode <> 'dark' OR theme_color <> '200 60% 55%'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE players DROP COLUMN theme_mode_chosen`);
  }
}
