import { minBetFor } from "@casino/common";
import { defineScenario } from "../scenario";

/**
 * The shared crash room. Its room and messages are not part of this server yet: until they are, each
 * player tries to join `crash` once, the refusal is counted as tolerated, and the player falls back to
 * coin flips. Fill `step` in (join, bet before launch, cash out at a target) when the room exists.
 */
export default defineScenario({
  name: "crash",
  description: "slot for the shared crash room (falls back to coin flips while the server has none)",
  async setup(p) {
    try {
      const crash = await p.client.joinOrCreate("crash");
      await crash.leave(true);
    } catch {
      p.ctx.stats.tolerate("join crash: unavailable");
    }
  },
  async step(p) {
    await p.bet("coin-flip", minBetFor("coin-flip"), { side: "heads" });
    await p.think(1000, 2000);
  },
});
