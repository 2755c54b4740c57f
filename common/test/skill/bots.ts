import {
  ARENA_HEIGHT,
  ARENA_WIDTH,
  ConnectDots,
  DotBattle,
  FP,
  InputRecorder,
  KEY_DOWN,
  KEY_LEFT,
  KEY_RIGHT,
  KEY_UP,
  dotLayout,
  type DotBattleInput,
  type DotsRules,
  type DotsInput,
} from "../../src/index";

/**
 * Scripted players that play the skill games through the same InputRecorder the browser uses, so
 * their logs obey the input rules. They stand in for a person in tests: what they score is whatever
 * the simulation gives them.
 */

const MOVES = [0, KEY_UP, KEY_DOWN, KEY_LEFT, KEY_RIGHT, KEY_UP | KEY_LEFT, KEY_UP | KEY_RIGHT, KEY_DOWN | KEY_LEFT, KEY_DOWN | KEY_RIGHT];

/** Dot Battle: dodges the bullets it can see coming and drifts under the nearest enemy. */
export function playDotBattle(seed: string, style = 0): { inputs: DotBattleInput[]; kills: number; ticks: number } {
  const game = new DotBattle(seed);
  const recorder = new InputRecorder<[number]>([0]);
  while (!game.over) {
    const wanted = chooseKeys(game, style);
    const [keys] = recorder.at(game.state.tick, [wanted]);
    game.step(keys);
  }
  return { inputs: recorder.events as unknown as DotBattleInput[], ...game.result() };
}

function chooseKeys(game: DotBattle, style: number): number {
  const s = game.state;
  const target = s.enemies.reduce<{ x: number; d: number } | null>((best, e) => {
    const d = Math.abs(e.x - s.player.x) + Math.abs(e.y - s.player.y) / 4;
    return best === null || d < best.d ? { x: e.x, d } : best;
  }, null);
  let bestKeys = 0;
  let bestScore = -Infinity;
  for (const keys of MOVES) {
    const dx = (keys & KEY_RIGHT ? 1 : 0) - (keys & KEY_LEFT ? 1 : 0);
    const dy = (keys & KEY_DOWN ? 1 : 0) - (keys & KEY_UP ? 1 : 0);
    let danger = 0;
    for (let k = 1; k <= 8; k++) {
      const x = s.player.x + dx * 4 * FP * k;
      const y = s.player.y + dy * 4 * FP * k;
      for (const b of s.bullets) {
        const bx = b.x + b.vx * k;
        const by = b.y + b.vy * k;
        const d2 = ((bx - x) / FP) ** 2 + ((by - y) / FP) ** 2;
        if (d2 < 400) danger += (400 - d2) / k;
      }
      for (const e of s.enemies) {
        const d2 = ((e.x + e.vx * k - x) / FP) ** 2 + ((e.y + e.vy * k - y) / FP) ** 2;
        if (d2 < 900) danger += (900 - d2) / k;
      }
    }
    const nx = s.player.x + dx * 4 * FP;
    const ny = s.player.y + dy * 4 * FP;
    const aim = target ? -Math.abs(target.x - nx) / FP : 0;
    const home = -Math.abs(ny / FP - (520 - style * 40)) / 4;
    const score = -danger * 4 + aim + home - (keys === 0 ? 0 : 0.5);
    if (score > bestScore) {
      bestScore = score;
      bestKeys = keys;
    }
  }
  return bestKeys;
}

/**
 * Connect the Dots: holds the pointer down on the next dot until the puzzle is done. Under rules 1 by
 * default, as a browser loaded before rules 2 plays (its submission carries no `rulesVersion`).
 */
export function playConnectDots(seed: string, rules: DotsRules = 1): { inputs: DotsInput[]; completionMs: number | null } {
  const game = new ConnectDots(seed, rules);
  const recorder = new InputRecorder<[number, number, number]>([game.state.pointer.x, game.state.pointer.y, 0]);
  while (!game.over) {
    const next = game.state.dots[game.state.connected]!;
    const [x, y, down] = recorder.at(game.state.tick, [next.x, next.y, 1]);
    game.step(x, y, down === 1);
  }
  return { inputs: recorder.events as unknown as DotsInput[], completionMs: game.result().completionMs };
}

/** Dot Battle without dodging: sweeps left and right, changing direction every `period` ticks. */
export function sweepDotBattle(seed: string, period = 90): { inputs: DotBattleInput[]; kills: number; ticks: number } {
  const game = new DotBattle(seed);
  const recorder = new InputRecorder<[number]>([0]);
  while (!game.over) {
    const wanted = Math.floor(game.state.tick / period) % 2 === 0 ? KEY_LEFT : KEY_RIGHT;
    const [keys] = recorder.at(game.state.tick, [wanted]);
    game.step(keys);
  }
  return { inputs: recorder.events as unknown as DotBattleInput[], ...game.result() };
}

/**
 * Connect the Dots as a quick swipe: pointer samples every other tick (the input rate allows no more)
 * while the pointer moves far faster than the pen, and no sample lands on a dot: each dot is crossed
 * between a sample `overshoot` pixels before it and one as far beyond it, on the line towards it.
 */
export function swipeConnectDots(seed: string, overshoot = 30): DotsInput[] {
  const dots = dotLayout(seed);
  const points: [number, number][] = [];
  const clampTo = (v: number, hi: number) => Math.min(hi, Math.max(0, Math.round(v)));
  let from = { x: ARENA_WIDTH / 2, y: ARENA_HEIGHT / 2 };
  for (const d of dots) {
    const len = Math.hypot(d.x - from.x, d.y - from.y);
    const ux = (d.x - from.x) / len;
    const uy = (d.y - from.y) / len;
    points.push([clampTo(d.x - ux * overshoot, ARENA_WIDTH), clampTo(d.y - uy * overshoot, ARENA_HEIGHT)]);
    points.push([clampTo(d.x + ux * overshoot, ARENA_WIDTH), clampTo(d.y + uy * overshoot, ARENA_HEIGHT)]);
    from = d;
  }
  const inputs: DotsInput[] = points.map(([x, y], i) => [i * 2, x, y, 1]);
  const [x, y] = points[points.length - 1]!;
  inputs.push([points.length * 2, x, y, 0]);
  return inputs;
}
