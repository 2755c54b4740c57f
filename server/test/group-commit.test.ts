import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { STARTING_BALANCE } from "@casino/common";
import { moneyGroupCommit } from "../src/core/ledger/engine/requests";
import { AppError } from "../src/platform/errors";
import { TEST_DB, startTestApp, type TestApp } from "./harness";

/**
 * Group commit of money requests: requests that arrive together share one transaction and one COMMIT,
 * each isolated from the others, each answered only after the commit.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, { redis: false });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const ledger = () => t.app.services.ledger;
const stats = () => ({ ...moneyGroupCommit(t.app.services.db).stats });

const DICE = { target: 49.5, direction: "under" };
/** The smallest bet: every bet takes 1 coin. */
const DICE_MIN = 1;

async function players(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const p = await ledger().createPlayer({ discordId: `guest-${randomUUID()}`, username: `batch${i}`, avatarUrl: null });
    ids.push(p.id);
  }
  return ids;
}

/** The ledger entries a request made (ids `<request id>#<reason>`). */
const entriesOf = async (requestId: string) =>
  (await t.sql(`SELECT reason, delta, created_at FROM ledger_entries WHERE request_id LIKE $1 ORDER BY reason`, [`${requestId}#%`])) as {
    reason: string;
    delta: string;
    created_at: Date;
  }[];
const storedAnswers = async (requestIds: string[]) =>
  Number((await t.sql(`SELECT count(*)::int AS n FROM processed_requests WHERE request_id = ANY($1::text[])`, [requestIds]))[0].n);

/** How a promise settled, without throwing. */
const settled = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
const codeOf = (r: { ok: boolean; error?: unknown }) =>
  r.ok ? "ok" : r.error instanceof AppError ? r.error.code : String((r.error as Error)?.message);

describe("requests that arrive together", () => {
  it("share one transaction and one commit, across players and for one player, and the player's own requests stay in order", async () => {
    const ids = await players(12);
    const [first] = ids as [string];
    const before = stats();
    const sent = [
      ...ids.map((p) => ({ player: p, requestId: randomUUID() })),
      // Three more of the first player: they wait for its first, inside the same batch.
      ...[1, 2, 3].map(() => ({ player: first, requestId: randomUUID() })),
    ];
    const answers = await Promise.all(sent.map((s) => ledger().placeBet(s.player, s.requestId, "dice", DICE_MIN, DICE)));
    const after = stats();
    expect(after.batches - before.batches).toBe(1);
    expect(after.committed - before.committed).toBe(1);
    expect(after.shared - before.shared).toBe(sent.length);
    expect(after.largest).toBeGreaterThanOrEqual(sent.length);

    // One transaction: PostgreSQL's now() is the transaction's start, the same on every row it wrote.
    const times = new Set<number>();
    for (const s of sent) {
      const entries = await entriesOf(s.requestId);
      expect(entries.length).toBeGreaterThan(0);
      for (const e of entries) times.add(new Date(e.created_at).getTime());
    }
    expect(times.size).toBe(1);

    // The first player's four bets ran one after the other: nonces 0..3, each balance following the last.
    const own = sent.map((s, i) => ({ s, a: answers[i]! })).filter(({ s }) => s.player === first);
    expect(own.map(({ a }) => a.fairness.nonce)).toEqual([0, 1, 2, 3]);
    let balance = STARTING_BALANCE;
    for (const { a } of own) {
      balance += a.payout - a.stake;
      expect(a.balance).toBe(balance);
    }
    expect(await t.balanceOf(first)).toBe(balance);
    for (const [i, p] of ids.entries()) if (p !== first) expect(await t.balanceOf(p)).toBe(answers[i]!.balance);
  });

  it("refusals and failures of some members undo nothing of the others", async () => {
    const [rich, poor, reuser, crash, other] = (await players(5)) as [string, string, string, string, string];
    // An id whose stored answer was pruned but whose ledger entries remain, older than the money path's
    // lookup of request ids (35 days) and in the same partition (a database migrated this month has one
    // for everything before next month; the template is this month's, template-database.ts): its writes
    // fail at the database, on the partition's unique index.
    const old = randomUUID();
    await ledger().placeBet(reuser, old, "dice", DICE_MIN, DICE);
    await t.sql(`DELETE FROM processed_requests WHERE player_id = $1 AND request_id = $2`, [reuser, old]);
    await t.sql(`UPDATE ledger_entries SET created_at = now() - interval '40 days' WHERE player_id = $1 AND request_id LIKE $2 || '#%'`, [
      reuser,
      old,
    ]);
    const reuserBalance = await t.balanceOf(reuser);

    const before = stats();
    const ok1 = randomUUID();
    const ok2 = randomUUID();
    const ok3 = randomUUID();
    const results = await Promise.all([
      settled(ledger().placeBet(rich, ok1, "dice", DICE_MIN, DICE)),
      settled(ledger().placeBet(poor, randomUUID(), "dice", STARTING_BALANCE + 1, DICE)),
      settled(ledger().placeBet(reuser, old, "dice", DICE_MIN, DICE)),
      // Queries the database (the round's row) before it is refused: rolled back to its own savepoint.
      settled(ledger().placeCrashBet(crash, randomUUID(), { roundId: randomUUID(), amount: 5, autoCashOut: null })),
      settled(ledger().placeBet(other, ok2, "dice", DICE_MIN, { target: 200, direction: "under" })),
      settled(ledger().placeBet(other, ok3, "dice", DICE_MIN, DICE)),
      settled(ledger().placeBet(rich, randomUUID(), "no-such-game", DICE_MIN, {})),
    ]);
    const after = stats();
    expect(after.batches - before.batches).toBe(1);
    // The reused id's write failed, so the batch ran again with each request's writes isolated.
    expect(after.tries - before.tries).toBe(2);
    expect(results.map(codeOf)).toEqual([
      "ok",
      "insufficient_funds",
      "request_id_reused",
      "betting_closed",
      "invalid_params",
      "ok",
      "unknown_game",
    ]);

    for (const id of [ok1, ok3]) expect((await entriesOf(id)).length).toBeGreaterThan(0);
    const [a1, , , , , a3] = results as { ok: true; value: { balance: number } }[];
    expect(await t.balanceOf(rich)).toBe(a1!.value.balance);
    expect(await t.balanceOf(other)).toBe(a3!.value.balance);
    expect(await t.balanceOf(poor)).toBe(STARTING_BALANCE);
    expect(await t.balanceOf(crash)).toBe(STARTING_BALANCE);
    expect(await t.balanceOf(reuser)).toBe(reuserBalance);
    expect((await entriesOf(old)).filter((e) => e.reason === "bet")).toHaveLength(1);
  });

  it("the same request id twice in one batch is run once and answered the same twice; another body under that id is refused", async () => {
    const [p, q] = (await players(2)) as [string, string];
    const id = randomUUID();
    const before = stats();
    const [a, b, c, d] = await Promise.all([
      settled(ledger().placeBet(p, id, "dice", DICE_MIN, DICE)),
      settled(ledger().placeBet(q, randomUUID(), "dice", DICE_MIN, DICE)),
      settled(ledger().placeBet(p, id, "dice", DICE_MIN, DICE)),
      settled(ledger().placeBet(p, id, "dice", DICE_MIN + 1, DICE)),
    ]);
    expect(stats().batches - before.batches).toBe(1);
    expect([a, b, c].map(codeOf)).toEqual(["ok", "ok", "ok"]);
    expect(codeOf(d)).toBe("request_id_reused");
    const first = (a as { value: object }).value;
    const again = (c as { value: object }).value;
    expect(again).toEqual({ ...first, replayed: true });
    expect((await entriesOf(id)).filter((e) => e.reason === "bet")).toHaveLength(1);
    expect(await t.balanceOf(p)).toBe((first as { balance: number }).balance);
  });
});

describe("a batch whose commit fails", () => {
  const MARK = 7;

  afterEach(async () => {
    await t.sql(`DROP TRIGGER IF EXISTS fail_at_commit ON ledger_entries`);
  });

  /** A deferred constraint trigger: it runs at COMMIT, and `body` runs there when a bet of MARK coins is in the transaction. */
  const failAtCommit = async (body: string) => {
    await t.sql(`CREATE OR REPLACE FUNCTION fail_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.delta = -${MARK} THEN ${body}; END IF; RETURN NULL; END $$`);
    await t.sql(`CREATE CONSTRAINT TRIGGER fail_at_commit AFTER INSERT ON ledger_entries DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION fail_at_commit()`);
  };

  /** Bets of three players (one of them twice) and one of MARK coins, together; the retries once the commit can succeed. */
  async function batchThatCannotCommit(expectCode: (r: { ok: boolean; error?: unknown }) => void) {
    const ids = (await players(3)) as [string, string, string];
    const bets = [
      { player: ids[0], requestId: randomUUID(), amount: DICE_MIN },
      { player: ids[1], requestId: randomUUID(), amount: DICE_MIN },
      { player: ids[0], requestId: randomUUID(), amount: DICE_MIN },
      { player: ids[2], requestId: randomUUID(), amount: MARK },
    ];
    const before = stats();
    const results = await Promise.all(bets.map((b) => settled(ledger().placeBet(b.player, b.requestId, "dice", b.amount, DICE))));
    const after = stats();
    expect(after.batches - before.batches).toBe(1);
    expect(after.committed - before.committed).toBe(0);
    for (const r of results) expectCode(r);
    // Nothing of the batch was applied.
    for (const p of ids) expect(await t.balanceOf(p)).toBe(STARTING_BALANCE);
    for (const b of bets) expect(await entriesOf(b.requestId)).toEqual([]);
    expect(await storedAnswers(bets.map((b) => b.requestId))).toBe(0);

    // The same ids again, once the commit can succeed: each applied once, then replayed.
    await t.sql(`DROP TRIGGER fail_at_commit ON ledger_entries`);
    const retried = await Promise.all(bets.map((b) => ledger().placeBet(b.player, b.requestId, "dice", b.amount, DICE)));
    const replayed = await Promise.all(bets.map((b) => ledger().placeBet(b.player, b.requestId, "dice", b.amount, DICE)));
    expect(replayed).toEqual(retried.map((a) => ({ ...a, replayed: true })));
    for (const b of bets) expect((await entriesOf(b.requestId)).filter((e) => e.reason === "bet")).toHaveLength(1);
  }

  it("answers every member with the commit's error and applies nothing", async () => {
    await failAtCommit(`RAISE EXCEPTION 'refused at commit'`);
    await batchThatCannotCommit((r) => {
      expect(r.ok).toBe(false);
      expect(String((r.error as Error).message)).toMatch(/refused at commit/);
    });
  });

  it.runIf(TEST_DB === "postgres")("answers every member outcome_unknown when the connection dies during COMMIT", async () => {
    await failAtCommit(`PERFORM pg_terminate_backend(pg_backend_pid())`);
    await batchThatCannotCommit((r) => expect(codeOf(r)).toBe("outcome_unknown"));
  });
});

describe.runIf(TEST_DB === "postgres")("a batch aborted by a deadlock", () => {
  it("runs again as a whole, and nothing of the aborted try is applied twice", async () => {
    const [a, b] = (await players(2)) as [string, string];
    await ledger().placeBet(a, randomUUID(), "mines", 1, { mines: 3 });
    const url = t.app.services.config.databaseUrl!;
    const holder = new pg.Client({ connectionString: url });
    const watcher = new pg.Client({ connectionString: url });
    for (const c of [holder, watcher]) c.on("error", () => undefined);
    await holder.connect();
    await watcher.connect();
    try {
      // The other transaction holds A's open round, and will ask for B's row once the batch waits for it.
      // Its own deadlock check comes late, so the batch is the side PostgreSQL aborts.
      await holder.query(`BEGIN`);
      await holder.query(`SET LOCAL deadlock_timeout = '60s'`);
      await holder.query(`SELECT 1 FROM open_rounds WHERE player_id = $1 FOR UPDATE`, [a]);

      const before = stats();
      const diceA = randomUUID();
      const diceB = randomUUID();
      const act = randomUUID();
      const batch = settled(
        Promise.all([
          ledger().placeBet(a, diceA, "dice", DICE_MIN, DICE),
          ledger().placeBet(b, diceB, "dice", DICE_MIN, DICE),
          // A's second request (second wave): its write of the open round waits for the holder.
          ledger().act(a, act, { type: "reveal", tile: 0 }),
        ]),
      );
      const holderPid = (await holder.query(`SELECT pg_backend_pid() AS pid`)).rows[0].pid;
      for (;;) {
        const { rows } = await watcher.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> $1`,
          [holderPid],
        );
        if (rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      // Waits for the batch, which waits for it: PostgreSQL aborts the batch, and this gets B's row.
      await holder.query(`SELECT 1 FROM players WHERE id = $1 FOR UPDATE`, [b]);
      await holder.query(`COMMIT`);
      const outcome = await batch;
      if (!outcome.ok) throw outcome.error;
      const [betA, betB, acted] = outcome.value;
      const after = stats();
      expect(after.batches - before.batches).toBe(1);
      expect(after.tries - before.tries).toBe(2);

      for (const id of [diceA, diceB]) expect((await entriesOf(id)).filter((e) => e.reason === "bet")).toHaveLength(1);
      expect(await storedAnswers([diceA, diceB, act])).toBe(3);
      expect(acted.fairness.nonce).toBe(0);
      expect(betA.fairness.nonce).toBe(1);
      expect(await t.balanceOf(a)).toBe(acted.balance);
      expect(await t.balanceOf(b)).toBe(betB.balance);
      const nonce = Number((await t.sql(`SELECT nonce FROM fairness_seeds WHERE player_id = $1 AND active`, [a]))[0].nonce);
      expect(nonce).toBe(2);
    } finally {
      await holder.end().catch(() => undefined);
      await watcher.end();
    }
  });
});

describe.runIf(TEST_DB === "postgres")("round trips of a batch", () => {
  /** Every query sent on the pool's connections while `work` runs, with how many answers that connection still awaited when it was sent. */
  async function sentDuring(work: () => Promise<unknown>) {
    const pool = (t.app.services.db.dataSource.driver as unknown as { master: pg.Pool }).master;
    const sent = new Map<object, { text: string; awaiting: number; prepared: boolean }[]>();
    const originals = new Map<pg.PoolClient, pg.PoolClient["query"]>();
    const watch = (client: pg.PoolClient) => {
      if (originals.has(client)) return;
      const query = client.query;
      originals.set(client, query);
      let awaiting = 0;
      const log: { text: string; awaiting: number; prepared: boolean }[] = [];
      sent.set(client, log);
      client.query = ((config: string | { text: string; name?: string }, ...rest: unknown[]) => {
        const [text, prepared] = typeof config === "string" ? [config, false] : [config.text, config.name !== undefined];
        log.push({ text, awaiting, prepared });
        awaiting++;
        const done = () => void awaiting--;
        // pg-pool's own `pool.query` passes a callback and gets no promise back: count its answer there.
        const callback = rest.at(-1);
        if (typeof callback === "function") {
          rest[rest.length - 1] = (...args: unknown[]) => {
            done();
            return (callback as (...a: unknown[]) => unknown)(...args);
          };
        }
        const answer = (query as (...args: unknown[]) => Promise<unknown> | undefined).call(client, config, ...rest);
        if (answer) void answer.then(done, done);
        return answer;
      }) as pg.PoolClient["query"];
    };
    pool.on("acquire", watch);
    try {
      await work();
    } finally {
      pool.off("acquire", watch);
      for (const [client, query] of originals) client.query = query;
    }
    return [...sent.values()];
  }

  /** The batch's transaction in `logs`: from the BEGIN right before its lock statement to its COMMIT. */
  const batchOf = (logs: Awaited<ReturnType<typeof sentDuring>>) =>
    logs
      .map((log) => {
        const lock = log.findIndex((q) => q.text.includes("plan_cache_mode"));
        return lock > 0 ? log.slice(lock - 1, log.findIndex((q, i) => i > lock && q.text === "COMMIT") + 1) : [];
      })
      .find((tx) => tx.length > 0)!;

  it("BEGIN, the lock and the read leave together, the writes leave with COMMIT: PostgreSQL is waited for twice", async () => {
    const ids = await players(4);
    const requests = ids.map((p) => ({ p, id: randomUUID() }));
    const logs = await sentDuring(() => Promise.all(requests.map((r) => ledger().placeBet(r.p, r.id, "dice", DICE_MIN, DICE))));
    const batch = batchOf(logs);
    expect(batch.map((q) => q.text.split(/\s/)[0])).toEqual(["BEGIN", "SELECT", "SELECT", "WITH", "COMMIT"]);
    // Sent with nothing awaited: a wait for PostgreSQL before it. The others went out behind earlier statements.
    expect(batch.map((q) => q.awaiting)).toEqual([0, 1, 2, 0, 1]);
    // The writes of every bet: one prepared statement of fixed text, whatever the batch.
    expect(batch.map((q) => q.prepared)).toEqual([false, true, true, true, false]);
    for (const r of requests) expect((await entriesOf(r.id)).length).toBeGreaterThan(0);
  });

  it("a round left open adds a statement of its own, sent with the others before COMMIT", async () => {
    const ids = await players(3);
    const logs = await sentDuring(() =>
      Promise.all([
        ...ids.slice(1).map((p) => ledger().placeBet(p, randomUUID(), "dice", DICE_MIN, DICE)),
        ledger().placeBet(ids[0]!, randomUUID(), "mines", 1, { mines: 3 }),
      ]),
    );
    const batch = batchOf(logs);
    expect(batch.map((q) => q.text.split(/\s/)[0])).toEqual(["BEGIN", "SELECT", "SELECT", "WITH", "WITH", "COMMIT"]);
    expect(batch.map((q) => q.awaiting)).toEqual([0, 1, 2, 0, 1, 2]);
    expect(batch[4]!.text).toContain("INSERT INTO open_rounds");
    expect(await t.sql(`SELECT 1 FROM open_rounds WHERE player_id = $1`, [ids[0]])).toHaveLength(1);
  });
});
