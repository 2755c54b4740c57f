import { ARENA_HEIGHT, ARENA_WIDTH, FP, SkillRng, TICKS_PER_SECOND, dist2, idiv, isqrt, ticksToMs } from "./fixed";
import { replayLog, type Replay } from "./input-log";

/**
 * Connect the Dots: ten numbered dots, placed from the round's seed. The player holds the pointer down
 * and draws through them in order; the pen follows the pointer at a bounded speed, so the fastest
 * possible time is the length of the path divided by that speed, for a person and a program alike.
 * Completing the puzzle pays 5 coins and the time counts for the Speed board.
 *
 * One step is one tick (1/60 s). The pen's position is in 1/256 pixel; the pointer in whole pixels.
 */
export const DOTS_ROUND_TICKS = 120 * TICKS_PER_SECOND;
export const DOT_COUNT = 10;
export const DOT_RADIUS = 18;
/** Pen speed in pixels a tick (840 pixels a second). */
export const PEN_SPEED = 14;
const MIN_SPACING = 90;
const MARGIN = 40;
const PLACEMENT_ATTEMPTS = 200;

/** One input event: [tick, pointer x, pointer y, pointer down (1) or up (0)], held from that tick on. */
export type DotsInput = readonly [tick: number, x: number, y: number, down: number];

export interface DotsState {
  tick: number;
  /** The dots in order, in pixels. */
  dots: { x: number; y: number }[];
  /** How many dots are connected (the next to reach is dots[connected]). */
  connected: number;
  pen: { x: number; y: number };
  pointer: { x: number; y: number; down: boolean };
  /** The tick count at which the last dot was reached, once it has been. */
  completedAtTick: number | null;
  over: boolean;
}

export interface DotsResult {
  completed: boolean;
  connected: number;
  /** Ticks from the start to the tick the last dot was reached (inclusive), or null. */
  completionTicks: number | null;
  completionMs: number | null;
}

/** The dot layout of a seed: every dot at least 90 pixels from the ones before it. */
export function dotLayout(seed: string): { x: number; y: number }[] {
  const rng = new SkillRng(seed);
  const dots: { x: number; y: number }[] = [];
  for (let i = 0; i < DOT_COUNT; i++) {
    let candidate = { x: 0, y: 0 };
    for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS; attempt++) {
      candidate = { x: rng.between(MARGIN, ARENA_WIDTH - MARGIN), y: rng.between(MARGIN, ARENA_HEIGHT - MARGIN) };
      if (dots.every((d) => dist2(d.x, d.y, candidate.x, candidate.y) >= MIN_SPACING * MIN_SPACING)) break;
    }
    dots.push(candidate);
  }
  return dots;
}

export class ConnectDots {
  readonly state: DotsState;

  constructor(seed: string) {
    const centre = { x: (ARENA_WIDTH / 2) * FP, y: (ARENA_HEIGHT / 2) * FP };
    this.state = {
      tick: 0,
      dots: dotLayout(seed),
      connected: 0,
      pen: centre,
      pointer: { x: ARENA_WIDTH / 2, y: ARENA_HEIGHT / 2, down: false },
      completedAtTick: null,
      over: false,
    };
  }

  get over(): boolean {
    return this.state.over;
  }

  /** Advances one tick with the pointer at (x, y), pressed or not. */
  step(x: number, y: number, down: boolean): void {
    const s = this.state;
    if (s.over) return;
    s.pointer = { x, y, down };
    const tx = x * FP;
    const ty = y * FP;
    const dx = tx - s.pen.x;
    const dy = ty - s.pen.y;
    const len = isqrt(dx * dx + dy * dy);
    const speed = PEN_SPEED * FP;
    if (len <= speed) s.pen = { x: tx, y: ty };
    else s.pen = { x: s.pen.x + idiv(dx * speed, len), y: s.pen.y + idiv(dy * speed, len) };
    const reach = DOT_RADIUS * FP;
    while (down && s.connected < s.dots.length) {
      const next = s.dots[s.connected]!;
      if (dist2(s.pen.x, s.pen.y, next.x * FP, next.y * FP) > reach * reach) break;
      s.connected += 1;
    }
    s.tick += 1;
    if (s.connected === s.dots.length) {
      s.completedAtTick = s.tick;
      s.over = true;
    } else if (s.tick >= DOTS_ROUND_TICKS) {
      s.over = true;
    }
  }

  result(): DotsResult {
    const ticks = this.state.completedAtTick;
    return {
      completed: ticks !== null,
      connected: this.state.connected,
      completionTicks: ticks,
      completionMs: ticks === null ? null : ticksToMs(ticks),
    };
  }
}

/**
 * Plays a log until the puzzle is done, the round is over, or nothing more can happen (every input
 * used and the pointer up); `used` counts the inputs that fell inside the game.
 */
export function runConnectDots(seed: string, inputs: readonly DotsInput[]): { game: ConnectDots; used: number } {
  const game = new ConnectDots(seed);
  let pointer: [number, number, boolean] = [game.state.pointer.x, game.state.pointer.y, false];
  let used = 0;
  while (!game.over) {
    const event = inputs[used];
    if (event && event[0] === game.state.tick) {
      pointer = [event[1], event[2], event[3] === 1];
      used += 1;
    }
    if (used >= inputs.length && !pointer[2]) break;
    game.step(...pointer);
  }
  return { game, used };
}

/** Replays a round from its seed and input log. */
export function replayConnectDots(seed: string, inputs: readonly DotsInput[]): Replay<DotsResult> {
  return replayLog(inputs, DOTS_ROUND_TICKS, () => {
    const { game, used } = runConnectDots(seed, inputs);
    return { used, endTick: game.state.tick, result: game.result() };
  });
}
