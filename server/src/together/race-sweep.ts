import type { Presence } from "@colyseus/core";
import type { Clock, ClockTimer } from "../platform/clock";
import type { Database } from "../platform/db/database";
import { sqlRows } from "../platform/db/sql";
import type { Log } from "../platform/log";
import type { PlayerEvents } from "../core/events/player-events";
import { finishRace } from "./race";
import { raceChannel } from "./together";

/** How often each process looks for races past their end that nobody finished (on the app's clock). */
export const RACE_SWEEP_MS = 5_000;
/** Overdue races one sweep finishes at most (the next sweep takes the rest). */
const RACE_SWEEP_BATCH = 50;

export interface RaceEnding {
  db: Database;
  clock: Clock;
  presence: Presence;
  events: PlayerEvents;
}

/**
 * Ends the race and tells of it: the winner hears "Tag Unlocked!" when the tag is new to them, and every
 * together room of the instance (on any process) reads the race again from the race channel. Returns
 * false, telling nothing, when the race was finished already (by a room or a sweep of another process).
 */
export async function endRace(ending: RaceEnding, raceId: string, instanceId: string): Promise<boolean> {
  const done = await finishRace(ending.db, ending.clock, raceId);
  if (!done) return false;
  if (done.winnerId && done.unlocked) {
    ending.events.publish(done.winnerId, {
      type: "notice",
      title: "Tag Unlocked!",
      description: `You earned the ${done.unlocked} tag.`,
    });
  }
  await Promise.resolve(ending.presence.publish(raceChannel(instanceId), 1));
  return true;
}

/**
 * Finishes the races whose end has passed on the app's clock and that nobody finished: a race's end is
 * otherwise taken by the together rooms of its instance, and when every member has left, the rooms are
 * gone. Every process runs the sweep; `finishRace` ends a race under its row's lock, once, so of two
 * processes sweeping at the same moment one finishes it and the other finds it done.
 */
export class RaceSweep {
  private timer: ClockTimer | undefined;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly ending: RaceEnding,
    private readonly log: Pick<Log, "error">,
    private readonly everyMs = RACE_SWEEP_MS,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(this.ending.clock.now() + this.everyMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.ending.clock.clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** The next sweep at `at` on the clock: every `everyMs` from the start, a slow sweep not moving the ones after. */
  private schedule(at: number): void {
    if (this.stopped) return;
    const clock = this.ending.clock;
    this.timer = clock.setTimeout(
      () => {
        this.running = this.sweep()
          .catch((error: unknown) => this.log.error("together:race-sweep", "race sweep failed", error))
          .finally(() => this.schedule(Math.max(at + this.everyMs, clock.now())));
      },
      Math.max(0, at - clock.now()),
    );
  }

  /** One sweep: the ids of the races this call finished (not those another process finished first). */
  async sweep(): Promise<string[]> {
    const overdue = await this.ending.db.run((em) =>
      sqlRows(
        em,
        `SELECT id, instance_id FROM tonight_races WHERE finished_at IS NULL AND ends_at <= $1 ORDER BY ends_at LIMIT ${RACE_SWEEP_BATCH}`,
        [new Date(this.ending.clock.now())],
      ),
    );
    const finished: string[] = [];
    for (const race of overdue) {
      if (await endRace(this.ending, race.id as string, race.instance_id as string)) finished.push(race.id as string);
    }
    return finished;
  }
}
