import type { QueryRunner } from "typeorm";
import { sqlRows, statementName } from "./sql";

/**
 * The statements of one transaction, sent in the order they are given. On PostgreSQL they go out on
 * the transaction's connection without waiting for the answers of the ones before (the driver's
 * pipeline mode, `pipeline: true` on the pool's clients): BEGIN leaves with the first statement, and
 * COMMIT can leave right behind the last write, so a transaction of four statements costs two round
 * trips instead of six. The server runs them one after the other all the same, each with a snapshot
 * of its own: a read sent behind a lock runs once the lock is granted and sees what the previous
 * holder committed.
 *
 * Each statement is answered on its own. One that fails aborts the transaction: the ones sent behind
 * it fail with 25P02 ("current transaction is aborted") and COMMIT ends it as a rollback, which
 * `commit` reports as an error. Callers await statements in the order they sent them and so see the
 * first failure first. Never mix `send` with the entity manager's own queries without awaiting in
 * between: the manager sends its queries a few microtasks later, and they could overtake.
 */
export interface Pipe {
  /** Sends a statement now, behind everything sent before. `prepared`: a named prepared statement (fixed text only). */
  send<T = Record<string, unknown>>(text: string, values?: unknown[], prepared?: boolean): Promise<T[]>;
  /**
   * Sends COMMIT now, behind everything sent before; called again, answers the same promise. Resolves
   * once the transaction committed; rejects when it did not (nothing of it was applied, or, should the
   * connection fail, whether it was is unknown).
   */
  commit(): Promise<void>;
}

interface PgResult {
  rows: unknown[];
  command?: string;
}
interface PgClient {
  query(config: { text: string; values?: unknown[]; name?: string }): Promise<PgResult>;
}

/** The error of a COMMIT that ended the transaction as a rollback (a statement before it had failed). */
class RolledBack extends Error {
  constructor() {
    super("the transaction was rolled back: a statement of it had failed");
  }
}

const ignore = () => undefined;

/** A transaction on a PostgreSQL connection, driven with BEGIN and COMMIT of its own. */
export class PgTransaction implements Pipe {
  private readonly begun: Promise<PgResult>;
  private committing: Promise<void> | undefined;

  /**
   * `begin`: the text that opens the transaction (behind a transaction pooler, BEGIN with the timeouts:
   * pooler.ts). `named`: whether `prepared` statements are prepared by name (not behind such a pooler).
   */
  constructor(
    private readonly client: PgClient,
    begin = "BEGIN",
    private readonly named = true,
  ) {
    this.begun = client.query({ text: begin });
    this.begun.catch(ignore); // awaited by commit; a failed BEGIN also fails every statement behind it
  }

  async send<T>(text: string, values: unknown[] = [], prepared = false): Promise<T[]> {
    const answer = this.client.query(prepared && this.named ? { name: statementName(text), text, values } : { text, values });
    return (await answer).rows as T[];
  }

  commit(): Promise<void> {
    if (!this.committing) {
      const sent = this.client.query({ text: "COMMIT" });
      sent.catch(ignore); // awaited below, unless a failed BEGIN is the error to report
      this.committing = (async () => {
        await this.begun;
        const answer = await sent;
        if (answer.command !== "COMMIT") throw new RolledBack();
      })();
      this.committing.catch(ignore); // the caller awaits it; nobody may have to
    }
    return this.committing;
  }

  /** Rolls back, unless the transaction already ended (committed, or rolled back by a failed COMMIT). */
  async rollback(): Promise<void> {
    if (this.committing) return this.committing.then(ignore, ignore);
    await this.client.query({ text: "ROLLBACK" });
  }
}

/**
 * The same contract where statements cannot be pipelined (embedded PGlite: one session, one query at a
 * time): each statement is sent once the one before was answered, through the query runner's own
 * transaction.
 */
export class SequentialTransaction implements Pipe {
  private last: Promise<unknown> = Promise.resolve();
  private committing: Promise<void> | undefined;

  constructor(private readonly runner: QueryRunner) {}

  send<T>(text: string, values: unknown[] = []): Promise<T[]> {
    const answer = this.last.then(() => sqlRows<T>(this.runner.manager, text, values));
    this.last = answer.catch(ignore);
    return answer;
  }

  commit(): Promise<void> {
    if (!this.committing) {
      this.committing = this.last.then(() => this.runner.commitTransaction());
      this.committing.catch(ignore);
    }
    return this.committing;
  }

  get committed(): boolean {
    return this.committing !== undefined;
  }
}
