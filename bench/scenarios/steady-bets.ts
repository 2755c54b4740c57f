import { defineScenario } from "../../loadtest/scenario";

/**
 * One dice bet every BENCH_BET_INTERVAL_MS per player, on a fixed schedule (a slow answer does not
 * push the next bet back, so the offered rate stays constant), for latency at a given load.
 */
const INTERVAL = Number(process.env.BENCH_BET_INTERVAL_MS ?? 200);
const next = new WeakMap<object, number>();

export default defineScenario({
  name: "steady-bets",
  description: "dice bets on a fixed schedule",
  async setup(p) {
    // Spread the players' schedules over one interval.
    next.set(p, performance.now() + Math.random() * INTERVAL);
  },
  async step(p) {
    const due = next.get(p)!;
    const wait = due - performance.now();
    if (wait > 0) await p.think(wait);
    next.set(p, Math.max(due + INTERVAL, performance.now() - INTERVAL));
    if (!p.stopping) await p.bet("dice", 1, { target: 49.5, direction: "under" });
  },
});
