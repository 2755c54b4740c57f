import { DOT_RADIUS, segmentHitsCircle } from "@casino/common/skill/connect-dots";

/** A pointer position in arena pixels and whether it is pressed (1) or not (0). */
export type Pointer = [x: number, y: number, down: number];

/**
 * The pointer's path between the ticks that can log it. The browser reports many pointer samples a
 * tick (every coalesced event), but the input log takes at most one a tick and 30 a second, and the
 * pen draws straight lines between logged points: a quick swipe logged only by its latest positions
 * would cut the corner of every dot it turned at. So every sample is kept here, and where the line
 * between two samples passes through the dot the player is heading for, a point of that line inside
 * the dot is queued for the log; so are the points where the pointer went down and came up. The game
 * logs the queued points in order (as fast as the input rate allows), then the pointer's latest
 * position as before.
 */
export class SwipeTrail {
  /** The index of the next dot the queued points have not passed yet. */
  aim = 0;
  latest: Pointer;
  private readonly queue: Pointer[] = [];
  private last: Pointer | null = null;

  constructor(
    private readonly dots: readonly { x: number; y: number }[],
    start: Pointer,
  ) {
    this.latest = start;
  }

  /** One pointer sample (in order, every one the browser reports). */
  add(sample: Pointer): void {
    const last = this.last;
    // A stroke runs to where the pointer was lifted.
    if (last && last[2] === 1) this.passAt(last[0], last[1], sample[0], sample[1]);
    if (!last || last[2] !== sample[2]) {
      this.queue.push(sample);
      if (sample[2] === 1) this.passAt(sample[0], sample[1], sample[0], sample[1]);
    }
    this.last = sample;
    this.latest = sample;
  }

  /** The oldest point still to log, if any. */
  peek(): Pointer | undefined {
    return this.queue[0];
  }

  /** The oldest point was logged. */
  shift(): void {
    this.queue.shift();
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Queues a point inside each next dot the segment passes through. */
  private passAt(ax: number, ay: number, bx: number, by: number): void {
    while (this.aim < this.dots.length) {
      const d = this.dots[this.aim]!;
      if (!segmentHitsCircle(ax, ay, bx, by, d.x, d.y, DOT_RADIUS)) return;
      // The point of the segment nearest the dot, in whole pixels; the dot's centre if rounding left it outside.
      const vx = bx - ax;
      const vy = by - ay;
      const len2 = vx * vx + vy * vy;
      const t = len2 === 0 ? 0 : Math.min(1, Math.max(0, ((d.x - ax) * vx + (d.y - ay) * vy) / len2));
      const x = Math.round(ax + vx * t);
      const y = Math.round(ay + vy * t);
      const inside = (x - d.x) ** 2 + (y - d.y) ** 2 <= DOT_RADIUS * DOT_RADIUS;
      this.queue.push(inside ? [x, y, 1] : [d.x, d.y, 1]);
      this.aim += 1;
    }
  }
}
