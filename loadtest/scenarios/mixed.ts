import { defineScenario, type Scenario } from "../scenario";
import type { VirtualPlayer } from "../player";
import dice from "./dice-spam";
import multiStep from "./multi-step";
import dailySpin from "./daily-spin";
import leaderboard from "./leaderboard";
import reconnect from "./reconnect-storm";

/**
 * A crowd: each player follows one behaviour, by weight. Dice players pause between bets here (a
 * person clicking), unlike `dice-spam`.
 */
const casualDice: Scenario = {
  name: "casual-dice",
  description: "dice bets with a short pause",
  async step(p) {
    await dice.step(p);
    await p.think(200, 1200);
  },
};

const MIX: [Scenario, number][] = [
  [casualDice, 45],
  [multiStep, 25],
  [dailySpin, 10],
  [leaderboard, 10],
  [reconnect, 10],
];

const TOTAL = MIX.reduce((n, [, w]) => n + w, 0);

/** Spreads players over the mix in a fixed order, so small runs get each behaviour early. */
function behaviourOf(p: VirtualPlayer): Scenario {
  const slot = ((p.index * 37) % TOTAL) + 0.5;
  let acc = 0;
  for (const [scenario, weight] of MIX) {
    acc += weight;
    if (slot < acc) return scenario;
  }
  return MIX[0]![0];
}

export default defineScenario({
  name: "mixed",
  description: "45% casual dice, 25% multi-step games, 10% daily spin + reads, 10% leaderboard, 10% reconnects",
  async setup(p) {
    await behaviourOf(p).setup?.(p);
  },
  async step(p) {
    await behaviourOf(p).step(p);
  },
});
