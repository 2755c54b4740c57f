import { ARENA_HEIGHT, ARENA_WIDTH, FP, SkillRng, TICKS_PER_SECOND, dist2, idiv, isqrt, ticksToMs } from "./fixed";
import { replayLog, type Replay } from "./input-log";

/**
 * Connect the Dots: ten numbered dots, placed from the round's seed. The player holds the pointer down
 * and draws through them in order; the pen follows the pointer at a bounded speed, so the fastest
 * possible time is the length of the path divided by that speed, for a person and a program alike.
 * Completing the puzzle pays 5 coins and the time counts for the Speed board.
 *
 * One step is one tick (1/60 s). The pen's position is in 1/256 pixel; the pointer in whole pixels.
 *
 * Two sets of rules, chosen by the round's `rulesVersion` (a recorded log always replays under the rules
 * it was played with):
 * - 1: the pen heads straight for the pointer's latest position and a dot counts when the pen, at the end
 *   of a tick, is within the dot's radius. A quick swipe left the pen cutting corners behind the pointer
 *   and, once the pointer was lifted, drawing nothing more: it scored nothing.
 * - 2 (current): the pen follows the pointer's path, every logged position in turn, at the same bounded
 *   speed, and a dot counts when any point of the line the pen drew passes within its radius (the
 *   distance from the dot to each segment, not only to its ends). The pen keeps drawing the path of a
 *   stroke after the pointer is lifted, up to the point where it was lifted.
 */
export const DOTS_ROUND_TICKS = 120 * TICKS_PER_SECOND;
export const DOT_COUNT = 10;
export const DOT_RADIUS = 18;
/** Pen speed in pixels a tick (840 pixels a second). */
export const PEN_SPEED = 14;
const MIN_SPACING = 90;
const MARGIN = 40;
const PLACEMENT_ATTEMPTS = 200;

/** The rules of rounds played from now on; 1 is kept to replay the rounds recorded under it. */
export const DOTS_RULES_VERSION = 2;
export const DOTS_RULES_VERSIONS = [1, 2] as const;
export type DotsRules = (typeof DOTS_RULES_VERSIONS)[number];

/** One input event: [tick, pointer x, pointer y, pointer down (1) or up (0)], held from that tick on. */
export type DotsInput = readonly [tick: number, x: number, y: number, down: number];

/** A point of the pointer's path still ahead of the pen (rules 2), in whole pixels. */
export interface DotsWaypoint {
  x: number;
  y: number;
  down: boolean;
}

/** A line that missed (rules 2): at `tick`, the line drawn passed over a later dot, or a stroke ended having reached no new dot. */
export interface DotsMiss {
  tick: number;
  /** The index of the dot the line had to pass through next. */
  expected: number;
}

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
  /** Rules 2 only: the pointer's path ahead of the pen, oldest first. */
  path?: DotsWaypoint[];
  /** Rules 2 only: whether the pen is drawing (the last point of the path it reached was pressed). */
  penDown?: boolean;
  /** Rules 2 only: how many dots were connected when the stroke being drawn began (null between strokes). */
  strokeFrom?: number | null;
  /** Rules 2 only: the latest miss, if any. */
  miss?: DotsMiss | null;
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

/**
 * Whether the segment from (ax, ay) to (bx, by) passes within `r` of (cx, cy): the distance from the
 * point to the nearest point of the segment, ends included. Integers (any unit); exact for coordinates
 * of the arena in 1/256 pixel (the cross product is squared in BigInt).
 */
export function segmentHitsCircle(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, r: number): boolean {
  const vx = bx - ax;
  const vy = by - ay;
  const wx = cx - ax;
  const wy = cy - ay;
  const along = wx * vx + wy * vy;
  const len2 = vx * vx + vy * vy;
  if (along <= 0 || len2 === 0) return dist2(ax, ay, cx, cy) <= r * r;
  if (along >= len2) return dist2(bx, by, cx, cy) <= r * r;
  // Beside the segment: distance² = cross² / len2.
  const cross = BigInt(wx * vy - wy * vx);
  return cross * cross <= BigInt(r * r) * BigInt(len2);
}

export class ConnectDots {
  readonly state: DotsState;
  readonly rules: DotsRules;

  constructor(seed: string, rules: DotsRules = DOTS_RULES_VERSION) {
    const centre = { x: (ARENA_WIDTH / 2) * FP, y: (ARENA_HEIGHT / 2) * FP };
    this.rules = rules;
    this.state = {
      tick: 0,
      dots: dotLayout(seed),
      connected: 0,
      pen: centre,
      pointer: { x: ARENA_WIDTH / 2, y: ARENA_HEIGHT / 2, down: false },
      completedAtTick: null,
      over: false,
    };
    if (rules === 2) Object.assign(this.state, { path: [], penDown: false, strokeFrom: null, miss: null });
  }

  /** Whether the pen has caught up with the pointer (nothing of its path is left to draw). */
  get caughtUp(): boolean {
    return this.rules === 1 || this.state.path!.length === 0;
  }

  get over(): boolean {
    return this.state.over;
  }

  /** Advances one tick with the pointer at (x, y), pressed or not. */
  step(x: number, y: number, down: boolean): void {
    if (this.state.over) return;
    if (this.rules === 1) this.stepFollowingLatest(x, y, down);
    else this.stepFollowingPath(x, y, down);
    const s = this.state;
    s.tick += 1;
    if (s.connected === s.dots.length) {
      s.completedAtTick = s.tick;
      s.over = true;
    } else if (s.tick >= DOTS_ROUND_TICKS) {
      s.over = true;
    }
  }

  /** Rules 1: the pen heads for the pointer's latest position; a dot counts where the pen ends the tick. */
  private stepFollowingLatest(x: number, y: number, down: boolean): void {
    const s = this.state;
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
  }

  /**
   * Rules 2: each change of the pointer adds a point to the path; the pen walks the path at PEN_SPEED
   * pixels a tick, corner to corner, and every segment it walks while drawing is tested against the
   * next dot. A segment draws when the pen leaves a pressed point or heads for one (so the line runs
   * from where the pointer went down to where it was lifted).
   */
  private stepFollowingPath(x: number, y: number, down: boolean): void {
    const s = this.state;
    const path = s.path!;
    const p = s.pointer;
    if (p.x !== x || p.y !== y || p.down !== down) {
      const last = path[path.length - 1];
      const beforeLast = path.length >= 2 ? path[path.length - 2]!.down : s.penDown!;
      // Hovering draws nothing, so a hover point followed by another is skipped: the pen heads for the latest.
      if (!down && last && !last.down && !beforeLast) path[path.length - 1] = { x, y, down };
      else path.push({ x, y, down });
    }
    s.pointer = { x, y, down };
    let budget = PEN_SPEED * FP;
    while (budget > 0 && path.length > 0) {
      const target = path[0]!;
      const tx = target.x * FP;
      const ty = target.y * FP;
      const dx = tx - s.pen.x;
      const dy = ty - s.pen.y;
      const len = isqrt(dx * dx + dy * dy);
      const from = s.pen;
      const reached = len <= budget;
      s.pen = reached ? { x: tx, y: ty } : { x: from.x + idiv(dx * budget, len), y: from.y + idiv(dy * budget, len) };
      budget = reached ? budget - len : 0;
      if (s.penDown || target.down) {
        if (s.strokeFrom === null) s.strokeFrom = s.connected;
        this.draw(from, s.pen);
      }
      if (!reached || s.connected === s.dots.length) break;
      path.shift();
      if (s.penDown && !target.down) {
        // The end of a stroke that reached no new dot.
        if (s.connected === s.strokeFrom) s.miss = { tick: s.tick, expected: s.connected };
        s.strokeFrom = null;
      }
      s.penDown = target.down;
    }
  }

  /** Rules 2: the pen drew from `a` to `b`: connects the next dots the segment passes, and notes a later dot passed instead. */
  private draw(a: { x: number; y: number }, b: { x: number; y: number }): void {
    const s = this.state;
    const reach = DOT_RADIUS * FP;
    const hits = (d: { x: number; y: number }) => segmentHitsCircle(a.x, a.y, b.x, b.y, d.x * FP, d.y * FP, reach);
    while (s.connected < s.dots.length && hits(s.dots[s.connected]!)) s.connected += 1;
    for (let i = s.connected + 1; i < s.dots.length; i++) {
      if (hits(s.dots[i]!)) {
        s.miss = { tick: s.tick, expected: s.connected };
        break;
      }
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
 * used, the pointer up and, under rules 2, the pen at the end of the path); `used` counts the inputs
 * that fell inside the game.
 */
export function runConnectDots(
  seed: string,
  inputs: readonly DotsInput[],
  rules: DotsRules = DOTS_RULES_VERSION,
): { game: ConnectDots; used: number } {
  const game = new ConnectDots(seed, rules);
  let pointer: [number, number, boolean] = [game.state.pointer.x, game.state.pointer.y, false];
  let used = 0;
  while (!game.over) {
    const event = inputs[used];
    if (event && event[0] === game.state.tick) {
      pointer = [event[1], event[2], event[3] === 1];
      used += 1;
    }
    if (used >= inputs.length && !pointer[2] && game.caughtUp) break;
    game.step(...pointer);
  }
  return { game, used };
}

/** Replays a round from its seed and input log, under the rules it was played with. */
export function replayConnectDots(seed: string, inputs: readonly DotsInput[], rules: DotsRules = DOTS_RULES_VERSION): Replay<DotsResult> {
  return replayLog(inputs, DOTS_ROUND_TICKS, () => {
    const { game, used } = runConnectDots(seed, inputs, rules);
    return { used, endTick: game.state.tick, result: game.result() };
  });
}
