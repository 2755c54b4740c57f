import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownSkillRecords } from "@casino/common";
import { startTestApp, type TestApp } from "./harness";

/** `GET /api/skill-rounds/records`: the caller's own best time and kills, whoever else played. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { redis: false });
});
afterAll(async () => {
  await t?.close();
});

const insert = (sql: string, params: unknown[]) => t.app.services.db.run((em) => em.query(sql, params));

describe("a player's own skill records", () => {
  it("are empty for a new guest, then the best of the caller's own results only", async () => {
    const me = await t.guest();
    const other = await t.guest();
    const empty = await t.request("GET", "/api/skill-rounds/records", { token: me.token });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ speed: { bestMs: null, rounds: 0 }, kills: { best: null, rounds: 0 } });

    for (const ms of [41_250, 38_120, 52_000])
      await insert(`INSERT INTO dots_speed_records (player_id, completion_time_ms) VALUES ($1, $2)`, [me.player.id, ms]);
    for (const kills of [9, 0, 4]) await insert(`INSERT INTO dot_battle_scores (player_id, kills) VALUES ($1, $2)`, [me.player.id, kills]);
    await insert(`INSERT INTO dots_speed_records (player_id, completion_time_ms) VALUES ($1, 1000)`, [other.player.id]);
    await insert(`INSERT INTO dot_battle_scores (player_id, kills) VALUES ($1, 99)`, [other.player.id]);

    const mine = await t.request("GET", "/api/skill-rounds/records", { token: me.token });
    expect(mine.status).toBe(200);
    expect(ownSkillRecords.parse(mine.body)).toEqual({ speed: { bestMs: 38_120, rounds: 3 }, kills: { best: 9, rounds: 3 } });
  });

  it("need a session", async () => {
    const res = await t.request("GET", "/api/skill-rounds/records");
    expect(res.status).toBe(401);
  });
});
