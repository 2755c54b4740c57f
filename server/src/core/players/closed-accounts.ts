import type { Presence } from "@colyseus/core";
import type { PlayerStatus } from "@casino/common";
import type { Database } from "../../platform/db/database";
import type { Row } from "../../platform/db/rows";
import { sqlRows } from "../../platform/db/sql";
import type { AppError } from "../../platform/errors";
import type { Log } from "../../platform/log";
import { closedAccountRefusal } from "./players";

/**
 * Published on the presence channel (Redis when scaled out) after an operator changed an account's
 * status: `npm run admin -- suspend|restore|erase` publishes it once the change has committed.
 */
export interface AccountChange {
  playerId: string;
  status: PlayerStatus;
}
export const ACCOUNT_CHANGES_CHANNEL = "accounts:changes";

/** How often each process reads the closed accounts again: the bound without Redis, or for a message lost. */
export const CLOSED_ACCOUNTS_REFRESH_MS = 5_000;
/** The longest a shutdown waits for Redis to confirm the unsubscription. */
const UNSUBSCRIBE_WAIT_MS = 1_000;

type ClosedListener = (playerId: string, refusal: AppError) => void;

/**
 * The accounts an operator suspended or erased, kept in each process so that every session token is
 * checked against them at no cost (`SessionTokens`' refusal): REST, room joins, and the connections
 * already open, which are closed when an account closes. An operator's change reaches the process on
 * the presence channel at once, and in any case within CLOSED_ACCOUNTS_REFRESH_MS, when the list is
 * read again from PostgreSQL (a partial index holds exactly these players). What this copy may miss
 * for that moment, the database refuses anyway: money requests are refused under the player's row lock,
 * and routes that load the caller's player (`Players.own`) refuse a closed one.
 */
export class ClosedAccounts {
  private readonly closed = new Map<string, PlayerStatus>();
  /** When a change of each player was last heard on the channel: a read that started before it is older news. */
  private readonly heardAt = new Map<string, number>();
  private readonly listeners: ClosedListener[] = [];
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly presence: Presence,
    private readonly log: Log,
    private readonly refreshMs = CLOSED_ACCOUNTS_REFRESH_MS,
  ) {}

  /** The refusal for a session of this player, or null for an account in good standing. */
  readonly refusal = (playerId: string): AppError | null => {
    const status = this.closed.get(playerId);
    return status ? closedAccountRefusal({ status }) : null;
  };

  /** Called once for each account that closes while this process runs (to end its open connections). */
  onClosed(listener: ClosedListener): void {
    this.listeners.push(listener);
  }

  async start(): Promise<void> {
    await this.presence.subscribe(ACCOUNT_CHANGES_CHANNEL, this.onChange);
    this.timer = setInterval(() => void this.refresh(), this.refreshMs);
    this.timer.unref();
    await this.refresh();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    // Redis may never answer: down, or a subscriber connection that reconnected with a reply lost (seen
    // when connections were reset as they opened, as a proxy in front of a stopped Redis does). A
    // shutdown waits for the unsubscription a second at most; the connection closes after it anyway.
    const unsubscribed = Promise.resolve(this.presence.unsubscribe(ACCOUNT_CHANGES_CHANNEL, this.onChange)).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([unsubscribed, new Promise((resolve) => (timer = setTimeout(resolve, UNSUBSCRIBE_WAIT_MS)))]);
    clearTimeout(timer);
    await this.refreshing;
  }

  private readonly onChange = (change: AccountChange): void => {
    if (typeof change?.playerId !== "string" || typeof change.status !== "string") return;
    this.heardAt.set(change.playerId, performance.now());
    this.apply(change.playerId, change.status);
  };

  /** Reads every closed account from PostgreSQL; one that closed since the last read is told to the listeners. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      const startedAt = performance.now();
      try {
        const rows = await this.db.run((em) =>
          sqlRows<Row<"players", "id" | "status">>(em, `SELECT id, status FROM players WHERE status <> 'active'`),
        );
        // A change heard on the channel while this read ran is newer than what the read saw.
        const newer = (id: string) => (this.heardAt.get(id) ?? -Infinity) >= startedAt;
        for (const [id, at] of this.heardAt) if (at < startedAt) this.heardAt.delete(id);
        const found = new Map(rows.map((r) => [r.id, r.status]));
        for (const id of [...this.closed.keys()]) if (!found.has(id) && !newer(id)) this.closed.delete(id);
        for (const [id, status] of found) if (!newer(id)) this.apply(id, status);
      } catch (error) {
        this.log.warn("closed-accounts", `closed accounts not read again: ${String(error)}`);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private apply(playerId: string, status: PlayerStatus): void {
    if (status === "active") {
      this.closed.delete(playerId);
      return;
    }
    if (this.closed.get(playerId) === status) return;
    this.closed.set(playerId, status);
    const refusal = closedAccountRefusal({ status })!;
    for (const listener of this.listeners) {
      try {
        listener(playerId, refusal);
      } catch (error) {
        this.log.error("closed-accounts:listener", "closing a player's connections failed", error);
      }
    }
  }
}
