import { TICKS_PER_SECOND } from "./fixed";

/**
 * A skill round's input log: one event per change of the player's input, stamped with the simulation
 * tick from which it holds. The rules below are what a real keyboard, mouse or finger can produce; the
 * server refuses a log that breaks any of them, and the browser records through `InputRecorder`, which
 * cannot break them.
 *
 * - ticks strictly increase (at most one event per tick) and lie inside the round: 0 ≤ tick < round length;
 * - at most MAX_INPUTS_PER_SECOND events in any window of TICKS_PER_SECOND consecutive ticks;
 * - no event after the tick at which the replay ends the game (death, completion).
 */
export const MAX_INPUTS_PER_SECOND = 30;

/** The most events a log of `roundTicks` ticks can hold under the rate limit. */
export const maxInputs = (roundTicks: number): number => Math.ceil(roundTicks / TICKS_PER_SECOND) * MAX_INPUTS_PER_SECOND;

/** Why a submitted log or claim was refused: a stable code and the message the player sees. */
export interface LogRefusal {
  code:
    | "input_order"
    | "input_range"
    | "input_rate"
    | "input_after_end"
    | "claim_above_replay"
    | "faster_than_replay"
    | "not_completed"
    | "faster_than_real_time";
  message: string;
}

/** Checks the timing rules that do not need the simulation; null when they hold. */
export function checkInputTiming(ticks: readonly number[], roundTicks: number): LogRefusal | null {
  for (let i = 0; i < ticks.length; i++) {
    const tick = ticks[i]!;
    if (!Number.isSafeInteger(tick) || tick < 0 || tick >= roundTicks) {
      return { code: "input_range", message: `input ${i} at tick ${tick} is outside the round (0–${roundTicks - 1})` };
    }
    if (i > 0 && tick <= ticks[i - 1]!) {
      return { code: "input_order", message: `input ${i} at tick ${tick} does not come after tick ${ticks[i - 1]}` };
    }
    const windowStart = i - MAX_INPUTS_PER_SECOND;
    if (windowStart >= 0 && tick - ticks[windowStart]! < TICKS_PER_SECOND) {
      return {
        code: "input_rate",
        message: `more than ${MAX_INPUTS_PER_SECOND} inputs within one second (ticks ${ticks[windowStart]}–${tick})`,
      };
    }
  }
  return null;
}

/** The outcome of replaying a log, or why it was refused. */
export type Replay<R> = { ok: true; result: R } | { ok: false; refusal: LogRefusal };

/**
 * Checks a log's timing, plays it (`play` runs the game to its end and says how many inputs it used),
 * and refuses inputs left over after the game ended.
 */
export function replayLog<R>(
  inputs: readonly (readonly number[])[],
  roundTicks: number,
  play: () => { used: number; endTick: number; result: R },
): Replay<R> {
  const timing = checkInputTiming(
    inputs.map((e) => e[0]!),
    roundTicks,
  );
  if (timing) return { ok: false, refusal: timing };
  const { used, endTick, result } = play();
  if (used < inputs.length) {
    return {
      ok: false,
      refusal: { code: "input_after_end", message: `input at tick ${inputs[used]![0]} comes after the game ended at tick ${endTick}` },
    };
  }
  return { ok: true, result };
}

/**
 * Records the inputs of a live game so that the log always satisfies the rules: a change that would
 * exceed the rate is held back until the first tick that allows it (the game then plays the input the
 * log says, so what the player sees and what the server replays are the same).
 */
export class InputRecorder<T extends readonly number[]> {
  readonly events: [number, ...T][] = [];
  private current: T;
  private lastTick = -1;

  constructor(initial: T) {
    this.current = initial;
  }

  /** The input that holds at `tick`, given what the player wants now; call once per tick, in order. */
  at(tick: number, wanted: T): T {
    if (tick <= this.lastTick) throw new Error("ticks must increase");
    this.lastTick = tick;
    if (sameInput(wanted, this.current)) return this.current;
    const windowStart = this.events.length - MAX_INPUTS_PER_SECOND;
    if (windowStart >= 0 && tick - this.events[windowStart]![0] < TICKS_PER_SECOND) return this.current;
    this.current = [...wanted] as unknown as T;
    this.events.push([tick, ...wanted]);
    return this.current;
  }
}

const sameInput = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);
