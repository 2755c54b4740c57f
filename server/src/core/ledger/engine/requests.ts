import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { EntityManager } from "typeorm";
import { GameRuleError, type PlayerStatus } from "@casino/common";
import type { Pipe } from "../../../platform/db/pipeline";
import { WriteBatch, sendWrites } from "./writes";
import { constraintOf, isConnectFailure, isConnectionTrouble, isRetryable, sqlState, type Database } from "../../../platform/db/database";
import { GroupCommit, RunAgain, type MemberOutcome } from "./group-commit";
import {
  lockPlayer,
  readPlayerMoney,
  readRequestStates,
  type LockedPlayer,
  type OpenRoundRow,
  type RequestState,
  type SeedRow,
  type StoredAnswer,
} from "./reads";
import type { RequestKind } from "./reasons";
import { BALANCE_REASONS, type Announcement, type Announcements, type BalanceReason } from "./announcements";
import {
  AppError,
  accountArchived,
  badRequest,
  accountErased,
  accountSuspended,
  conflict,
  notFound,
  outcomeUnknown,
  requestIdReused,
} from "../../../platform/errors";
import { countLedgerErrors } from "../../metrics";

/**
 * How every request that moves coins or changes seeds runs, whoever sends it (room or REST). Requests
 * that arrive together share one transaction and one commit (group commit, `runBatch` below):
 *
 * 1. The transaction first locks the rows of all its players, in one statement, in the order of their
 *    ids (`SELECT … FROM players WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE`). Every money transaction
 *    takes its players' locks first and in that order, so one player's money work is serialised across
 *    connections and processes, and no two of them can deadlock on each other. NO KEY UPDATE, not
 *    UPDATE: the foreign-key checks of rows that reference a player (the background readers' per-player
 *    counts) take KEY SHARE, which FOR UPDATE would block and so deadlock with a batch.
 * 2. Under the locks: read each request's stored answer, its player's active seed, next seed hash and
 *    open round, in one statement per wave (a player's second request in a batch reads after its first
 *    wrote). A stored answer of the same kind and fingerprint is replayed (flagged `replayed`, moving
 *    nothing); one of another kind or fingerprint is a 409.
 * 3. Check, compute, then write everything (nonce, balance, ledger entries, round records and the
 *    answer under its request id): the wave's requests together, as rows of one prepared statement and
 *    a second statement for anything else (`writes.ts`), sent with COMMIT. A refusal undoes that request
 *    alone; a write that fails runs the batch again with each request's writes under a savepoint of its
 *    own. Each request is answered once the commit succeeded.
 */

/**
 * Requests the player does not make: settling a crash bet cut short by a restart, and an operator's
 * grant or claw-back (a claw-back is what a suspension is often for). A suspension stops everything else.
 */
const NOT_BY_THE_PLAYER: ReadonlySet<RequestKind> = new Set(["crash-settle", "table-settle", "holdem-cash-out", "adjustment"]);

/** What the house owes the player whatever their account's status: a settlement, a stack cashed out. */
const SETTLEMENTS: ReadonlySet<RequestKind> = new Set(["crash-settle", "table-settle", "holdem-cash-out"]);

/**
 * Why a request for a player whose account is not active is refused, if it is (an erased account is
 * settled, never adjusted). A standing instruction the player gave while active (an automatic cash-out
 * set with a crash bet) is carried out like a settlement: refusing it would lose a bet the player had
 * already told the house how to end.
 */
function refusalForAccount(status: PlayerStatus, request: MoneyRequest): AppError | null {
  const { kind } = request;
  if (status === "suspended" && !NOT_BY_THE_PLAYER.has(kind) && !request.standingInstruction) return accountSuspended();
  if (status === "erased" && !SETTLEMENTS.has(kind) && !request.standingInstruction) return accountErased();
  return null;
}

export interface MoneyRequest {
  playerId: string;
  requestId: string;
  kind: RequestKind;
  /** The request's meaningful contents (everything but its id), fingerprinted. */
  body: unknown;
  /** Made by the server on an instruction the player gave with an earlier request (an automatic cash-out). */
  standingInstruction?: boolean;
  /** The connection that made it (a casino room's id), named in its balance announcement. */
  origin?: string;
}

/**
 * SHA-256 of the RFC 8785 canonical JSON of the request's kind and contents. Every caller validates the
 * body first (`plainData` in common/protocol.ts for the free-form parts), so it is JSON; should one not
 * be (NaN, a 64-bit integer), the request is refused as a bad message, never answered as a failure.
 */
export function fingerprintOf(kind: RequestKind, body: unknown): string {
  let canonical: string | undefined;
  try {
    canonical = canonicalize({ kind, body: body ?? null });
  } catch {
    throw badRequest("The message holds a value that is not plain data (numbers must be finite)", "invalid_message");
  }
  return createHash("sha256")
    .update(canonical ?? "")
    .digest("hex");
}
/** What a money transaction knows once the player is locked. */
export interface MoneyContext {
  player: LockedPlayer;
  seed: SeedRow;
  nextServerSeedHash: string;
  round: OpenRoundRow | null;
  writes: WriteBatch;
  /** The transaction, for reads (and guarded updates) whose answer the work needs before the batch runs. */
  em: EntityManager;
  /** Set by `moveCoins`: the request moved coins, so its commit announces the player's new balance. */
  moved: boolean;
  /** The connection that made the request (`MoneyRequest.origin`), for what the product announces; null for the server's own work. */
  origin: string | null;
  /** What the product announces besides the balance (a round stepped, a seat settled), told after COMMIT. */
  announced: Announcement[];
}

/** The unique constraint of `open_rounds.player_id`: a player has at most one open round. */
const OPEN_ROUND_CONSTRAINT = "open_rounds_player_id_key";
/**
 * The unique (player, request id) of each partition of `ledger_entries` (`<partition>_player_request`,
 * migration 1764100000017): entries outlive the stored answers of their requests.
 */
const LEDGER_REQUEST_CONSTRAINT = /^ledger_entries_\w+_player_request$/;

export type Replayable<T> = T & { replayed?: true };

type Work = (ctx: MoneyContext) => Promise<object>;
interface Member {
  request: MoneyRequest;
  fingerprint: string;
  work: Work;
}
interface Done {
  answer: object;
  /** False for a replayed answer: nothing new was written. */
  fresh: boolean;
  /** What its commit announces (nothing for a replay). */
  announced: Announcement[];
}

/** The most requests one batch takes: each may open a subtransaction, and PostgreSQL caches 64 per backend. */
export const MAX_BATCH = 48;

/** Batches running at once on PostgreSQL, each on its own pooled connection. */
export const MAX_BATCHES_IN_FLIGHT = 4;

/**
 * A second (third, fourth) batch starts beside a running one only after this delay since the last
 * start: measured with 32 clients on 2 cores, one batch at a time commits the most bets per second
 * (larger batches, fewer commits), while a batch that stalls on a lock or a slow commit holds the
 * others back for no longer than this.
 */
export const BATCH_OVERLAP_AFTER_MS = 25;

const batchesOf = new WeakMap<Database, GroupCommit<Member, Done>>();

/** The group commit of money requests on `db`: one per database, shared by every kind of money request. */
export function moneyGroupCommit(db: Database): GroupCommit<Member, Done> {
  let group = batchesOf.get(db);
  if (!group) {
    group = new GroupCommit<Member, Done>(db, runBatch, {
      maxBatch: MAX_BATCH,
      // PGlite runs one transaction at a time: one batch at a time there makes the batches larger.
      maxInFlight: db.embedded ? 1 : MAX_BATCHES_IN_FLIGHT,
      overlapAfterMs: BATCH_OVERLAP_AFTER_MS,
      keyOf: (m) => m.request.playerId,
    });
    batchesOf.set(db, group);
  }
  return group;
}

/** Runs money requests exactly once per (player, request id), in the order of their player locks. */
export class MoneyRequests {
  private readonly group: GroupCommit<Member, Done>;

  constructor(
    private readonly db: Database,
    /** Told, after each COMMIT, what the committed requests did (never a replay, never a rollback). */
    private readonly bus: Announcements,
  ) {
    this.group = moneyGroupCommit(db);
  }

  run<T extends object>(request: MoneyRequest, work: (ctx: MoneyContext) => Promise<T>): Promise<Replayable<T>> {
    return countLedgerErrors(this.runOnce(request, work));
  }

  /**
   * Work outside the group commit, in a transaction of its own, whose announcements are delivered after
   * its commit like a request's: creating a player with the starting grant (`openAccount`), settling an
   * abandoned round (`settleLocked`). A try that a retry replaces announces nothing.
   */
  async transaction<T>(work: (em: EntityManager, announce: (a: Announcement) => void) => Promise<T>): Promise<T> {
    let announced: Announcement[] = [];
    const result = await this.db.transaction((em) => {
      announced = [];
      return work(em, (a) => announced.push(a));
    });
    this.bus.deliver(announced);
    return result;
  }

  /**
   * Work the server does on its own for one player, outside the group commit (settling a round the
   * player left): in one transaction, the player's row locked first, or skipped (null) when another
   * transaction holds it (the player is playing right now); then the same reads as a request's, the
   * work, and its writes. No stored answer and no account check: nothing the player asked for runs.
   * `work` answers null to write nothing.
   */
  settleLocked<T>(playerId: string, reason: BalanceReason, work: (ctx: MoneyContext) => T | null): Promise<T | null> {
    return this.transaction(async (em, announce) => {
      const player = await lockPlayer(em, playerId, true);
      if (!player) return null;
      const { stored: _none, ...money } = await readPlayerMoney(em, playerId, null);
      const before = player.balance;
      const ctx: MoneyContext = { player, ...money, writes: new WriteBatch(), em, moved: false, origin: null, announced: [] };
      const result = work(ctx);
      if (result === null) return null;
      await ctx.writes.run(em);
      for (const a of announcementsOf(ctx, before, reason, null)) announce(a);
      return result;
    });
  }

  private async runOnce<T extends object>(request: MoneyRequest, work: (ctx: MoneyContext) => Promise<T>): Promise<Replayable<T>> {
    const fingerprint = fingerprintOf(request.kind, request.body);
    try {
      const outcome = await this.group.submit({ request, fingerprint, work });
      if (!outcome.ok) throw outcome.error;
      if (outcome.value.fresh) this.bus.deliver(outcome.value.announced);
      return outcome.value.answer as Replayable<T>;
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof GameRuleError) throw new AppError(error.code, 400, error.message);
      // Never connected: nothing was sent, the caller says the casino is unavailable. Connected, then lost
      // or timed out: whether it committed is unknown, and a retry with the same id is safe.
      if (isConnectFailure(error)) throw error;
      if (isConnectionTrouble(error)) throw outcomeUnknown();
      if (sqlState(error) !== "23505") throw error;
      return this.afterUniqueViolation(error, request, fingerprint);
    }
  }

  /**
   * A unique violation: a copy of this request that committed first (answered with its answer), or one
   * of the two constraints that mean something to the player.
   */
  private async afterUniqueViolation<T>(error: unknown, request: MoneyRequest, fingerprint: string): Promise<Replayable<T>> {
    const { stored } = await this.db.run((em) => readPlayerMoney(em, request.playerId, request.requestId));
    if (stored) return replayOf<T>(stored, request.kind, fingerprint);
    const constraint = constraintOf(error);
    if (constraint === OPEN_ROUND_CONSTRAINT) throw conflict("Finish your open round first", "round_open");
    // The id moved coins once, long enough ago that its answer was pruned: it is never run twice.
    if (constraint && LEDGER_REQUEST_CONSTRAINT.test(constraint)) throw requestIdReused();
    throw error;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An error that aborts the whole batch (and is answered to every member): the transaction cannot go on. */
const abortsBatch = (error: unknown): boolean => isRetryable(error) || isConnectionTrouble(error) || isConnectFailure(error);

/** The players' locks of a batch (see `runBatch`). */
const LOCK_PLAYERS = `SELECT id, set_config('plan_cache_mode', 'force_generic_plan', true) FROM players WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`;

const ignore = () => undefined;

/**
 * One batch of money requests, in its transaction:
 *
 * 1. Lock every player of the batch, in one statement, in the order of their ids (the one lock order
 *    of every transaction that locks several players).
 * 2. In waves: the first request of each player, then the second of each player that has two, and so
 *    on, so a player's later request sees what the earlier one wrote (a replay of the same id included).
 *    Each wave reads its players' state in one statement, then runs each request's work in turn.
 * 3. A request whose work queries the database gets a savepoint, sent with its first query, and
 *    writes right after its work; a refusal or error rolls back to the savepoint, undoing that request alone.
 *    The writes of the others of the wave go together, in one statement. Should that statement fail (a
 *    unique violation: rare), the batch is rolled back and runs again, this time with that statement
 *    under a savepoint and, if it fails again, each request's writes alone under its own savepoint, so
 *    only the request that cannot be written fails.
 *
 * Round trips: BEGIN, the lock and the first wave's read leave together, and the last wave's writes
 * leave together with COMMIT (the transaction's pipe), so a batch of one wave costs two round trips
 * to PostgreSQL. The read still runs after the lock is granted (the server runs them in order) and so
 * sees what the lock's previous holder committed.
 *
 * A deadlock, a serialisation failure or a lost connection aborts the batch (thrown): every member is
 * answered with that error, or the batch runs again as a whole.
 */
async function runBatch(em: EntityManager, members: Member[], again: boolean, pipe: Pipe): Promise<MemberOutcome<Done>[]> {
  const outcomes: MemberOutcome<Done>[] = new Array(members.length);
  const waves: number[][] = [];
  const seen = new Map<string, number>();
  members.forEach((m, i) => {
    if (!UUID.test(m.request.playerId)) {
      outcomes[i] = { ok: false, error: notFound("Player not found") };
      return;
    }
    const wave = seen.get(m.request.playerId) ?? 0;
    seen.set(m.request.playerId, wave + 1);
    (waves[wave] ??= []).push(i);
  });
  if (waves.length === 0) return outcomes;
  // The players' locks, in id order. The same statement sets plan_cache_mode for the rest of the
  // transaction (as SET LOCAL would, without a statement of its own): the batch's reads are prepared
  // statements over arrays of its players, which PostgreSQL would plan anew at every execution (a plan
  // for the exact array looks cheaper than a generic one), costing more than running them; their
  // generic plans are as good. The first wave's read is sent right behind it, unawaited.
  const locked = pipe.send(LOCK_PLAYERS, [[...seen.keys()]], true);
  const readWave = (wave: number[]) =>
    readRequestStates(
      pipe,
      wave.map((i) => members[i]!.request),
    );
  const firstRead = readWave(waves[0]!);
  firstRead.catch(ignore); // awaited below, after the lock: a failed lock fails it too, and the lock's error is the one to report
  await locked;

  let savepoints = 0;
  const savepoint = async () => {
    const name = `request_${++savepoints}`;
    await pipe.send(`SAVEPOINT ${name}`);
    return name;
  };
  const rollbackTo = (name: string) => pipe.send(`ROLLBACK TO SAVEPOINT ${name}`);

  for (const [w, wave] of waves.entries()) {
    const states = await (w === 0 ? firstRead : readWave(wave));
    const last = w === waves.length - 1;
    const pending: { index: number; writes: WriteBatch; answer: object; announced: Announcement[] }[] = [];
    for (const [k, index] of wave.entries()) {
      const m = members[index]!;
      let taken: Promise<string> | undefined;
      // The work's own queries: the first one takes this request's savepoint. They go through the
      // transaction's pipe, so the savepoint leaves with the first query (one round trip, not two) and
      // every statement keeps its order on the connection.
      const guarded = Object.create(em) as EntityManager;
      guarded.query = (async (text: string, values?: unknown[]) => {
        if (!taken) {
          taken = savepoint();
          taken.catch(ignore); // a failed savepoint fails the query sent behind it; awaited on a rollback
        }
        return pipe.send(text, values ?? []);
      }) as EntityManager["query"];
      try {
        const prepared = await prepare(m, states[k]!, guarded);
        if ("replay" in prepared) outcomes[index] = { ok: true, value: { answer: prepared.replay, fresh: false, announced: [] } };
        else if (taken) {
          await sendWrites(pipe, [prepared.writes]);
          outcomes[index] = { ok: true, value: { answer: prepared.answer, fresh: true, announced: prepared.announced } };
        } else pending.push({ index, ...prepared });
      } catch (error) {
        if (abortsBatch(error)) throw error;
        if (taken) await rollbackTo(await taken);
        outcomes[index] = { ok: false, error };
      }
    }
    if (pending.length === 0) continue;
    if (!again) {
      // The common case needs no savepoint: should these writes fail, the batch runs again with one.
      // The last wave's writes leave with COMMIT.
      const written = sendWrites(
        pipe,
        pending.map((p) => p.writes),
      );
      const committed = last ? pipe.commit() : undefined;
      try {
        await written;
      } catch (error) {
        await committed?.catch(ignore); // ended as a rollback: nothing of this try was applied
        if (abortsBatch(error)) throw error;
        throw new RunAgain("a write of the batch failed: run it again with each request's writes isolated");
      }
      await committed;
      for (const p of pending) outcomes[p.index] = { ok: true, value: { answer: p.answer, fresh: true, announced: p.announced } };
      continue;
    }
    const together = await savepoint();
    try {
      await sendWrites(
        pipe,
        pending.map((p) => p.writes),
      );
      for (const p of pending) outcomes[p.index] = { ok: true, value: { answer: p.answer, fresh: true, announced: p.announced } };
    } catch (error) {
      if (abortsBatch(error)) throw error;
      await rollbackTo(together);
      if (pending.length === 1) {
        outcomes[pending[0]!.index] = { ok: false, error };
        continue;
      }
      for (const p of pending) {
        const alone = await savepoint();
        try {
          await sendWrites(pipe, [p.writes]);
          outcomes[p.index] = { ok: true, value: { answer: p.answer, fresh: true, announced: p.announced } };
        } catch (error) {
          if (abortsBatch(error)) throw error;
          await rollbackTo(alone);
          outcomes[p.index] = { ok: false, error };
        }
      }
    }
  }
  return outcomes;
}

/** Checks a request against its locked player, then replays its stored answer or runs its work. */
async function prepare(
  m: Member,
  state: RequestState,
  em: EntityManager,
): Promise<{ replay: object } | { answer: object; writes: WriteBatch; announced: Announcement[] }> {
  const { request, fingerprint } = m;
  const player = state.player;
  if (!player) throw notFound("Player not found");
  if (player.archived) throw accountArchived();
  const refusal = refusalForAccount(player.status, request);
  if (refusal) throw refusal;
  const { stored, ...money } = state.money();
  if (stored) return { replay: replayOf(stored, request.kind, fingerprint) };
  const writes = new WriteBatch();
  const before = player.balance;
  const ctx: MoneyContext = { player, ...money, writes, em, moved: false, origin: request.origin ?? null, announced: [] };
  const answer = await m.work(ctx);
  writes.answer({
    playerId: request.playerId,
    requestId: request.requestId,
    kind: request.kind,
    fingerprint,
    response: JSON.stringify(answer),
  });
  return { answer, writes, announced: announcementsOf(ctx, before, BALANCE_REASONS[request.kind], request.origin ?? null) };
}

/** A request's announcements: its new balance first, if it moved coins, then what its product announced. */
function announcementsOf(ctx: MoneyContext, before: number, reason: BalanceReason, from: string | null): Announcement[] {
  if (!ctx.moved) return ctx.announced;
  const balance = ctx.player.balance;
  return [{ type: "balance", playerId: ctx.player.id, balance, delta: balance - before, reason, from }, ...ctx.announced];
}

function replayOf<T>(stored: StoredAnswer, kind: RequestKind, fingerprint: string): Replayable<T> {
  // Answers stored before kinds were recorded have an empty kind: they are answered as before.
  if (stored.kind !== "" && (stored.kind !== kind || stored.fingerprint !== fingerprint)) throw requestIdReused();
  return { ...(stored.response as T), replayed: true };
}
