import { describe, expect, it } from "vitest";
import { ConnectDots, DOT_COUNT, DOT_RADIUS, dotLayout, replayConnectDots } from "@casino/common/skill/connect-dots";
import { ARENA_HEIGHT, ARENA_WIDTH } from "@casino/common/skill/fixed";
import { InputRecorder } from "@casino/common/skill/input-log";
import { SwipeTrail, type Pointer } from "../src/games/dots/trail";

/**
 * The table's pointer trail: every pointer sample goes in, the input log gets the points a quick swipe
 * cannot lose. The loop below feeds it as the table does (several coalesced samples a tick, one log
 * slot a tick at most) and plays the logged points through the common simulation.
 */
const SEEDS = ["ab".repeat(32), "12".repeat(32), "9f".repeat(32)];

/** A swipe through the dots in order at `pxPerTick`, as `perTick` samples a tick; pressed from dot 1 to the lift after dot 10. */
function swipeSamples(seed: string, pxPerTick: number, perTick: number): Pointer[][] {
  const dots = dotLayout(seed);
  const route = [{ x: ARENA_WIDTH / 2, y: ARENA_HEIGHT / 2 }, ...dots];
  const ticks: Pointer[][] = [];
  let pressed = false;
  let tickSamples: Pointer[] = [];
  for (let leg = 1; leg < route.length; leg++) {
    const a = route[leg - 1]!;
    const b = route[leg]!;
    const steps = Math.ceil((Math.hypot(b.x - a.x, b.y - a.y) / pxPerTick) * perTick);
    for (let k = 1; k <= steps; k++) {
      tickSamples.push([Math.round(a.x + ((b.x - a.x) * k) / steps), Math.round(a.y + ((b.y - a.y) * k) / steps), pressed ? 1 : 0]);
      if (tickSamples.length === perTick) {
        ticks.push(tickSamples);
        tickSamples = [];
      }
    }
    pressed = true;
  }
  const last = dots[dots.length - 1]!;
  ticks.push([...tickSamples, [last.x, last.y, 0]]);
  return ticks;
}

/** Plays the sample ticks as the table does; `useTrail` false logs only the latest position every other tick (the old table). */
function play(seed: string, ticks: Pointer[][], useTrail: boolean) {
  const game = new ConnectDots(seed, 2);
  const initial: Pointer = [game.state.pointer.x, game.state.pointer.y, 0];
  const recorder = new InputRecorder<Pointer>(initial);
  const trail = new SwipeTrail(game.state.dots, initial);
  let latest = initial;
  let held = initial;
  while (!game.over) {
    const tick = game.state.tick;
    for (const sample of ticks[tick] ?? []) {
      trail.add(sample);
      latest = sample;
    }
    const queued = useTrail ? trail.peek() : undefined;
    const wanted = queued ?? (tick % 2 === 0 ? latest : held);
    held = recorder.at(tick, wanted);
    if (queued && held.every((v, i) => v === queued[i])) trail.shift();
    game.step(held[0], held[1], held[2] === 1);
    if (trail.pending === 0 && game.caughtUp) trail.aim = game.state.connected;
    if (tick > ticks.length && trail.pending === 0 && game.caughtUp && held[2] === 0) break;
  }
  return { game, inputs: recorder.events };
}

describe("SwipeTrail", () => {
  it("queues the press, a point inside each dot the line between two samples crosses, and the lift", () => {
    const dots = dotLayout(SEEDS[0]!);
    const d = dots[0]!;
    const trail = new SwipeTrail(dots, [240, 320, 0]);
    trail.add([d.x - 30, d.y - 1, 1]);
    trail.add([d.x + 30, d.y + 1, 1]);
    trail.add([d.x + 30, d.y + 1, 0]);
    const queued: Pointer[] = [];
    for (let p = trail.peek(); p; p = trail.peek()) {
      queued.push(p);
      trail.shift();
    }
    expect(queued).toHaveLength(3);
    expect(queued[0]).toEqual([d.x - 30, d.y - 1, 1]);
    const [x, y, down] = queued[1]!;
    expect(down).toBe(1);
    expect((x - d.x) ** 2 + (y - d.y) ** 2).toBeLessThanOrEqual(DOT_RADIUS ** 2);
    expect(queued[2]).toEqual([d.x + 30, d.y + 1, 0]);
    expect(trail.aim).toBe(1);
  });

  it("a line beside the dot queues no point for it", () => {
    const dots = dotLayout(SEEDS[0]!);
    const d = dots[0]!;
    const trail = new SwipeTrail(dots, [240, 320, 0]);
    trail.add([d.x - 30, d.y + DOT_RADIUS + 2, 1]);
    trail.add([d.x + 30, d.y + DOT_RADIUS + 2, 1]);
    expect(trail.pending).toBe(1);
    expect(trail.aim).toBe(0);
  });

  it("a swipe far faster than the log's 30 points a second connects every dot, and its log replays to the same time", () => {
    for (const seed of SEEDS) {
      const ticks = swipeSamples(seed, 60, 4);
      const { game, inputs } = play(seed, ticks, true);
      expect(game.state.connected).toBe(DOT_COUNT);
      const replay = replayConnectDots(seed, inputs, 2);
      expect(replay.ok && replay.result).toMatchObject({ completed: true, completionMs: game.result().completionMs });
      // Logging only the latest position every other tick cuts the corners at the dots.
      expect(play(seed, ticks, false).game.state.connected).toBeLessThan(DOT_COUNT);
    }
  });
});
