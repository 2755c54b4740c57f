import { idleInTransactionMs, type DatabaseTimeouts } from "./data-source";

/**
 * `DATABASE_URL` leads to a pooler in transaction mode (PgBouncer's `pool_mode = transaction`): each
 * transaction, and each statement outside one, may run on another PostgreSQL connection. What the
 * server does differently there (docs/operations.md, "Behind PgBouncer"):
 * - no setting lives on a connection: the timeouts are sent with each BEGIN (`pooledBegin`), not as
 *   connection parameters, which PgBouncer refuses;
 * - no named prepared statements (one prepared on a connection is unknown on the next): the hot
 *   statements go unnamed, parsed at every call;
 * - the migrations, which hold an advisory lock from one transaction to the next, run on `directUrl`.
 */
export interface TransactionPooler {
  /** PostgreSQL itself, not the pooler: the migrations at start and the one-off tools connect there. */
  directUrl: string;
}

/**
 * BEGIN, and the service's timeouts for that transaction alone, as one message: `SET LOCAL` ends with
 * the transaction, so the connection goes back to the pooler as it came, and no round trip is added
 * (the statements behind it are pipelined anyway).
 */
export function pooledBegin(timeouts: DatabaseTimeouts): string {
  return [
    "BEGIN",
    `SET LOCAL statement_timeout = ${timeouts.statementMs}`,
    `SET LOCAL idle_in_transaction_session_timeout = ${idleInTransactionMs(timeouts)}`,
  ].join("; ");
}
