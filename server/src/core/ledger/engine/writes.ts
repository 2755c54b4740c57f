import type { EntityManager } from "typeorm";
import type { LedgerReason } from "./reasons";
import { sqlPrepared, sqlRows } from "../../../platform/db/sql";
import type { Pipe } from "../../../platform/db/pipeline";

/** A ledger entry, as written. */
export interface LedgerEntryRow {
  playerId: string;
  delta: number;
  balanceAfter: number;
  reason: LedgerReason;
  reference: string | null;
  /** the counter-party account */
  account: string;
  requestId: string;
  seedId: string | null;
  nonce: number | null;
}

/** A finished round's record (`game_sessions`; the spec's `game_plays` is a view of it), as written. */
export interface GameSessionRow {
  playerId: string;
  gameType: string;
  amount: number | null;
  betAmount: number;
  result: string;
  payout: number;
  requestId: string | null;
  seedId: string | null;
  nonce: number | null;
  /** JSON texts */
  params: string;
  actions: string;
  outcome: string;
  /** the payout rounding rule the round was played under */
  rounding: number;
}

/** A request's stored answer (`processed_requests`), as written. */
export interface StoredAnswerRow {
  playerId: string;
  requestId: string;
  kind: string;
  fingerprint: string;
  /** JSON text */
  response: string;
}

let writeBatches = 0;
/** Marks a placeholder (p) or a part's name (w) of one batch; a private-use character never occurs in the SQL written here. */
const MARK = /\uE000(\d+)([pw])(\d+)\uE000/g;

/**
 * The writes of one money request. The writes nearly every request makes are kept as rows (`nonce`,
 * `move`, `entry`, `session`, `answer`) and go, for every request of a batch at once, into one
 * prepared statement of fixed text (`HOT_WRITES`): PostgreSQL parses and plans it once per connection,
 * whatever the batch. Anything else is a part (`add`): a data-modifying CTE of a second statement, built
 * for the batch, one round trip whatever the number of tables touched. A row may be modified only once
 * in a statement: each part must touch a different row (the rows of the first statement are merged per
 * player and per seed, and a request's parts run after them, in the second statement).
 */
export class WriteBatch {
  readonly id = ++writeBatches;
  readonly parts: string[] = [];
  readonly values: unknown[] = [];
  /** Seeds whose nonce moves by one. */
  readonly nonces: string[] = [];
  readonly moves: { playerId: string; net: number; seen: boolean }[] = [];
  readonly entries: LedgerEntryRow[] = [];
  readonly sessions: GameSessionRow[] = [];
  readonly answers: StoredAnswerRow[] = [];

  /** A placeholder for `value`. */
  p(value: unknown): string {
    this.values.push(value);
    return `\uE000${this.id}p${this.values.length - 1}\uE000`;
  }

  /** Adds a statement; answers the name a later part of this batch can read its RETURNING rows by. */
  add(statement: string): string {
    this.parts.push(statement);
    return `\uE000${this.id}w${this.parts.length - 1}\uE000`;
  }

  /** The seed's nonce moves by one (the request drew from it). */
  nonce(seedId: string): void {
    this.nonces.push(seedId);
  }

  /**
   * The player's balance moves by `net`; `seen`: the player did this (not the server on its own), so
   * `last_seen_at` moves too, once it is an hour old: most bets leave that indexed column as it was,
   * and the row's update stays HOT (retention counts idle time in days).
   */
  move(playerId: string, net: number, seen: boolean): void {
    this.moves.push({ playerId, net, seen });
  }

  entry(row: LedgerEntryRow): void {
    this.entries.push(row);
  }

  session(row: GameSessionRow): void {
    this.sessions.push(row);
  }

  answer(row: StoredAnswerRow): void {
    this.answers.push(row);
  }

  /** Runs these writes on `em`, statement after statement (outside a batch's pipe). */
  run(em: EntityManager): Promise<void> {
    return runWrites(em, [this]);
  }
}

/**
 * The first statement of a batch's writes: the rows of every request, as arrays (`unnest`). Fixed text,
 * so a named prepared statement with a generic plan. Ledger entries and rounds are inserted in the order
 * they were queued (their ids and sequence numbers follow it).
 *
 * The ledger's unique (player, request id) holds within a month's partition only (migration
 * 1764100000017): `ledger_refuse_reused` looks each new entry's (player, request id) up over the last 35
 * days, with the statement's snapshot (rows of earlier transactions, not these), and raises the unique
 * violation the index would (`ledger_entries_recent_player_request`), so an id that moved coins once,
 * and whose stored answer was pruned since, is refused as before (`afterUniqueViolation`), though its
 * entries are in last month's partition. Under the players' locks, so two copies of one request cannot
 * both pass; within one statement, the partition's unique index refuses the second.
 */
const HOT_WRITES = `WITH seeds AS (
    UPDATE fairness_seeds s SET nonce = s.nonce + v.n FROM unnest($1::uuid[], $2::int[]) AS v(id, n) WHERE s.id = v.id),
  moves AS (
    UPDATE players p SET balance = p.balance + v.net,
           last_seen_at = CASE WHEN v.seen AND p.last_seen_at < now() - interval '1 hour' THEN now() ELSE p.last_seen_at END
      FROM unnest($3::uuid[], $4::bigint[], $5::boolean[]) AS v(id, net, seen) WHERE p.id = v.id),
  entries AS (
    INSERT INTO ledger_entries (player_id, delta, balance_after, reason, reference, request_id, seed_id, nonce, account)
    SELECT player_id, delta, balance_after, reason, reference, request_id, seed_id, nonce, account
      FROM unnest($6::uuid[], $7::bigint[], $8::bigint[], $9::text[], $10::text[], $11::text[], $12::uuid[], $13::int[], $32::text[])
           WITH ORDINALITY AS v(player_id, delta, balance_after, reason, reference, request_id, seed_id, nonce, account, i)
     ORDER BY i),
  sessions AS (
    INSERT INTO game_sessions (player_id, game_type, amount, bet_amount, result, payout, request_id, seed_id, nonce, params, actions, outcome, rounding)
    SELECT player_id, game_type, amount, bet_amount, result, payout, request_id, seed_id, nonce, params, actions, outcome, rounding
      FROM unnest($14::uuid[], $15::text[], $16::bigint[], $17::bigint[], $18::text[], $19::bigint[], $20::text[], $21::uuid[], $22::int[],
                  $23::jsonb[], $24::jsonb[], $25::jsonb[], $31::int[])
           WITH ORDINALITY AS v(player_id, game_type, amount, bet_amount, result, payout, request_id, seed_id, nonce, params, actions, outcome, rounding, i)
     ORDER BY i),
  answers AS (
    INSERT INTO processed_requests (player_id, request_id, kind, fingerprint, response)
    SELECT * FROM unnest($26::uuid[], $27::text[], $28::text[], $29::text[], $30::jsonb[]))
SELECT ledger_refuse_reused($6::uuid[], $11::text[])`;

interface Statement {
  text: string;
  values: unknown[];
  prepared: boolean;
}

/** The writes of `batches`: the rows in one prepared statement, then the parts in one statement (each only if there are any). */
export function writeStatements(batches: WriteBatch[]): Statement[] {
  const statements: Statement[] = [];
  const hot = hotValues(batches);
  if (hot) statements.push({ text: HOT_WRITES, values: hot, prepared: true });
  const parts = partsStatement(batches);
  if (parts) statements.push(parts);
  return statements;
}

/** Runs the writes of `batches` on `em`, statement after statement. */
async function runWrites(em: EntityManager, batches: WriteBatch[]): Promise<void> {
  for (const s of writeStatements(batches)) await (s.prepared ? sqlPrepared(em, s.text, s.values) : sqlRows(em, s.text, s.values));
}

/**
 * Sends the writes of `batches` through the transaction's pipe, every statement at once (so a COMMIT sent
 * right after leaves with them); resolves when all are answered, rejects with the first failure.
 */
export function sendWrites(pipe: Pipe, batches: WriteBatch[]): Promise<void> {
  const sent = writeStatements(batches).map((s) => pipe.send(s.text, s.values, s.prepared));
  for (const answer of sent) answer.catch(() => undefined); // awaited below, in order
  return (async () => {
    for (const answer of sent) await answer;
  })();
}

function hotValues(batches: WriteBatch[]): unknown[] | null {
  const nonces = new Map<string, number>();
  const moves = new Map<string, { net: number; seen: boolean }>();
  const entries: LedgerEntryRow[] = [];
  const sessions: GameSessionRow[] = [];
  const answers: StoredAnswerRow[] = [];
  for (const b of batches) {
    for (const seed of b.nonces) nonces.set(seed, (nonces.get(seed) ?? 0) + 1);
    for (const m of b.moves) {
      const merged = moves.get(m.playerId);
      moves.set(m.playerId, merged ? { net: merged.net + m.net, seen: merged.seen || m.seen } : { net: m.net, seen: m.seen });
    }
    entries.push(...b.entries);
    sessions.push(...b.sessions);
    answers.push(...b.answers);
  }
  if (nonces.size + moves.size + entries.length + sessions.length + answers.length === 0) return null;
  const column = <T, K extends keyof T>(rows: T[], key: K) => rows.map((r) => r[key]);
  return [
    [...nonces.keys()],
    [...nonces.values()],
    [...moves.keys()],
    [...moves.values()].map((m) => m.net),
    [...moves.values()].map((m) => m.seen),
    ...(["playerId", "delta", "balanceAfter", "reason", "reference", "requestId", "seedId", "nonce"] as const).map((k) =>
      column(entries, k),
    ),
    ...(
      [
        "playerId",
        "gameType",
        "amount",
        "betAmount",
        "result",
        "payout",
        "requestId",
        "seedId",
        "nonce",
        "params",
        "actions",
        "outcome",
      ] as const
    ).map((k) => column(sessions, k)),
    ...(["playerId", "requestId", "kind", "fingerprint", "response"] as const).map((k) => column(answers, k)),
    column(sessions, "rounding"),
    column(entries, "account"),
  ];
}

function partsStatement(batches: WriteBatch[]): Statement | null {
  const values: unknown[] = [];
  const parts: string[] = [];
  const firstValue = new Map<number, number>();
  const firstPart = new Map<number, number>();
  for (const batch of batches) {
    firstValue.set(batch.id, values.length);
    firstPart.set(batch.id, parts.length);
    values.push(...batch.values);
    parts.push(...batch.parts);
  }
  if (parts.length === 0) return null;
  const ctes = parts.map((statement, i) => {
    const sql = statement.replace(MARK, (_, id: string, kind: string, n: string) =>
      kind === "p" ? `$${firstValue.get(Number(id))! + Number(n) + 1}` : `w${firstPart.get(Number(id))! + Number(n)}`,
    );
    return `w${i} AS (${sql})`;
  });
  return { text: `WITH ${ctes.join(",\n")} SELECT 1`, values, prepared: false };
}
