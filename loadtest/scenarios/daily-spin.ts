import { defineScenario } from "../scenario";

/** The daily wheel once (through the room), then reading the player's own record and history now and then. */
export default defineScenario({
  name: "daily-spin",
  description: "one daily spin, then profile and history reads every few seconds",
  async setup(p) {
    await p.request("daily-spin", {}, "daily-spin");
  },
  async step(p) {
    await p.http("GET", `/api/player/${p.playerId}`);
    await p.think(2000, 5000);
    await p.http("GET", `/api/player/${p.playerId}/history?limit=20`);
    await p.think(2000, 5000);
  },
});
