import { minBetFor } from "@casino/common";
import { defineScenario } from "../scenario";

/**
 * Leaderboard reads between a few bets. A server without the leaderboard routes answers 404: counted
 * apart (as tolerated), not as an error.
 */
export default defineScenario({
  name: "leaderboard",
  description: "leaderboard reads (404 tolerated) between coin flips",
  async step(p) {
    await p.http("GET", "/api/leaderboard?limit=10", undefined, { label: "GET /api/leaderboard", tolerate: [404] });
    await p.think(1000, 3000);
    await p.bet("coin-flip", minBetFor("coin-flip"), { side: Math.random() < 0.5 ? "heads" : "tails" });
    await p.think(1000, 3000);
  },
});
