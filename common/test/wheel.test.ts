import { describe, expect, it } from "vitest";
import { landingSegment, segmentAt, spinRotation, WHEEL_SEGMENTS } from "../src/wheel";
import { WHEEL_PRIZES } from "../src/constants";

describe("the daily wheel's landing", () => {
  it("lands on the server's segment after five to six full turns, always forward", () => {
    let rotation = 0;
    for (let spin = 0; spin < 50; spin++) {
      const segment = (spin * 7) % WHEEL_SEGMENTS;
      const next = spinRotation(rotation, segment);
      expect(segmentAt(next)).toBe(segment);
      expect(next - rotation).toBeGreaterThanOrEqual(5 * 360);
      expect(next - rotation).toBeLessThan(6 * 360);
      rotation = next;
    }
  });

  it("puts the centre of the segment under the pointer", () => {
    // Segment 0 spans 0°–30° at rest; its centre (15°) reaches the top after 345° more.
    expect(spinRotation(0, 0) % 360).toBe(345);
    expect(spinRotation(0, 8) % 360).toBe(105);
  });

  it("uses the server's segment when it holds the prize, else a segment with that prize, else any", () => {
    expect(landingSegment(500, 8)).toBe(8);
    expect(landingSegment(50, 3)).toBe(3);
    // A segment that does not hold the prize is not trusted: one that does is used instead.
    const fifties = WHEEL_PRIZES.flatMap((p, i) => (p === 50 ? [i] : []));
    expect(fifties).toContain(landingSegment(50, 8, () => 0.5));
    expect(landingSegment(250, undefined)).toBe(11);
    expect(landingSegment(50, undefined, () => 0)).toBe(fifties[0]);
    expect(landingSegment(50, undefined, () => 0.999)).toBe(fifties[fifties.length - 1]);
    expect(landingSegment(7, undefined, () => 0.5)).toBe(6);
  });
});
