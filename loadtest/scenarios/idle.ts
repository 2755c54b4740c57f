import { defineScenario } from "../scenario";

/** Joined and idle: the cost of a connected player who does nothing. */
export default defineScenario({
  name: "idle",
  description: "join and stay connected, doing nothing",
  async step(p) {
    await p.think(60_000);
  },
});
