import { defineScenario } from "../scenario";

/** Dice bets back to back, as fast as the answers come (and the bet rate limit allows). */
export default defineScenario({
  name: "dice-spam",
  description: "1-coin dice bets back to back",
  async step(p) {
    await p.bet("dice", 1, { target: 49.5, direction: "under" });
  },
});
