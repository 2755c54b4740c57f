import { defineScenario } from "../scenario";

/** Reads of the balance board (one of its first pages) and of the player's own rank, between coin flips. */
export default defineScenario({
  name: "leaderboard",
  description: "balance board pages and the player's own rank, between coin flips",
  async step(p) {
    const page = 1 + Math.floor(Math.random() * 3);
    await p.http("GET", `/api/leaderboard?page=${page}&limit=10`, undefined, { label: "GET /api/leaderboard" });
    await p.http("GET", `/api/player/${p.playerId}/rank`, undefined, { label: "GET /api/player/:id/rank" });
    await p.think(1000, 3000);
    await p.bet("coin-flip", 1, { side: Math.random() < 0.5 ? "heads" : "tails" });
    await p.think(1000, 3000);
  },
});
