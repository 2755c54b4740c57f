import { DAILY_SPIN_COOLDOWN_MS, REMINDER_CHECK_INTERVAL_MS } from "@casino/common";
import type { Database } from "../platform/db/database";
import { sqlRows } from "../platform/db/sql";
import type { CoreServices } from "../core/services";
import type { PlayerEvents } from "../core/events/player-events";

/** Players checked by one statement of the periodic sweep. */
const SWEEP_CHUNK = 1000;

/**
 * "Daily Spin Ready!" for every player connected to this process, on one shared timer instead of one
 * interval per room: each sweep claims the due reminders of all connected players with one conditional
 * update per thousand players, so exactly one connection (on any process) announces each readiness.
 * The timer runs only while someone is connected and never keeps the process alive.
 */
export class DailySpinReminders {
  /** Player id → connections of that player in this process. */
  private readonly connected = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** Players who just joined, checked together on the next turn of the event loop. */
  private arrivals: { ids: Set<string>; done: Promise<void> } | undefined;

  constructor(
    private readonly db: Database,
    private readonly events: PlayerEvents,
    private readonly intervalMs = REMINDER_CHECK_INTERVAL_MS,
  ) {}

  /**
   * A connection of the player joined: check at once, then on every sweep while connected. Players
   * joining in the same moment (a reconnect storm, a deploy) are checked with one statement.
   */
  join(playerId: string): Promise<void> {
    this.connected.set(playerId, (this.connected.get(playerId) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setInterval(() => void this.sweep(), this.intervalMs);
      this.timer.unref();
    }
    if (!this.arrivals) {
      const ids = new Set<string>();
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.arrivals = undefined;
        return this.remindAll([...ids]);
      });
      this.arrivals = { ids, done };
    }
    this.arrivals.ids.add(playerId);
    return this.arrivals.done;
  }

  leave(playerId: string): void {
    const count = this.connected.get(playerId) ?? 0;
    if (count <= 1) this.connected.delete(playerId);
    else this.connected.set(playerId, count - 1);
    if (this.connected.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  get size(): number {
    return this.connected.size;
  }

  sweep(): Promise<void> {
    return this.remindAll([...this.connected.keys()]);
  }

  private async remindAll(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += SWEEP_CHUNK) await this.remind(ids.slice(i, i + SWEEP_CHUNK));
  }

  /** Claims the due reminders among `playerIds` and announces each on the player's event channel. */
  private async remind(playerIds: string[]): Promise<void> {
    const rows = await this.db
      .run((em) =>
        sqlRows<{ id: string }>(
          em,
          `UPDATE players SET last_reminder_sent = now()
            WHERE id = ANY($1::uuid[]) AND daily_spin_reminder
              AND (last_daily_spin IS NULL OR last_daily_spin <= now() - ($2::bigint * interval '1 millisecond'))
              AND (last_reminder_sent IS NULL OR last_reminder_sent < COALESCE(last_daily_spin, '-infinity'::timestamptz))
            RETURNING id`,
          [playerIds, DAILY_SPIN_COOLDOWN_MS],
        ),
      )
      .catch(() => [] as { id: string }[]);
    for (const row of rows) {
      this.events.publish(row.id, { type: "notice", title: "Daily Spin Ready!", description: "Your free daily spin is waiting." });
    }
  }
}

const perApp = new WeakMap<Pick<CoreServices, "db" | "events">, DailySpinReminders>();

/** The reminder sweep of one running app. */
export function remindersOf(services: Pick<CoreServices, "db" | "events">): DailySpinReminders {
  let reminders = perApp.get(services);
  if (!reminders) {
    reminders = new DailySpinReminders(services.db, services.events);
    perApp.set(services, reminders);
  }
  return reminders;
}
