import { useEffect, useRef } from "react";
import { TICKS_PER_SECOND } from "@casino/common/skill/fixed";

const TICK_MS = 1000 / TICKS_PER_SECOND;
/** Behind by more than this many ticks (a hidden tab, a long pause), the game resumes instead of racing to catch up. */
const MAX_LAG_TICKS = 6;

/**
 * Runs a simulation at a fixed 60 ticks a second on animation frames, and draws after each frame.
 * Game time never runs ahead of the wall clock since the round started: the server refuses a log that
 * covers more game time than has passed. A frame that comes late plays the ticks it owes (a few at
 * most); after a longer stall the game carries on from where it was, a little behind real time.
 *
 * `step` returns false once the game is over; the loop then stops after a last draw.
 */
export function useFixedStep(running: boolean, step: () => boolean, draw: () => void): void {
  const latest = useRef({ step, draw });
  useEffect(() => {
    latest.current = { step, draw };
  });

  useEffect(() => {
    if (!running) {
      latest.current.draw();
      return;
    }
    let frame = 0;
    let origin = performance.now();
    let ticks = 0;
    let alive = true;
    const onFrame = (now: number) => {
      if (!alive) return;
      let due = Math.floor((now - origin) / TICK_MS);
      if (due - ticks > MAX_LAG_TICKS) {
        // Shift the origin so the game is one tick behind now: it never gets ahead by doing so.
        origin += (due - ticks - 1) * TICK_MS;
        due = ticks + 1;
      }
      let going = true;
      while (ticks < due && going) {
        going = latest.current.step();
        ticks += 1;
      }
      latest.current.draw();
      if (going) frame = requestAnimationFrame(onFrame);
    };
    frame = requestAnimationFrame(onFrame);
    return () => {
      alive = false;
      cancelAnimationFrame(frame);
    };
  }, [running]);
}

/** Keeps a canvas's backing store at its shown size times the device pixel ratio; returns the 2D context scaled to arena units. */
export function prepareCanvas(canvas: HTMLCanvasElement, arenaWidth: number, arenaHeight: number): CanvasRenderingContext2D | null {
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  const ratio = Math.min(window.devicePixelRatio || 1, 2);
  const width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  const height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  ctx.setTransform(width / arenaWidth, 0, 0, height / arenaHeight, 0, 0);
  return ctx;
}
