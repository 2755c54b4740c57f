import { describe, expect, it } from "vitest";
import { Log, type LogOptions } from "../../src/platform/log";

/** A log whose JSON lines are collected, on a clock the test moves. */
function collected(options: LogOptions = {}) {
  const lines: string[] = [];
  let now = 0;
  const log = new Log({ ...options, format: "json", now: () => now, destination: { write: (line: string) => void lines.push(line) } });
  return {
    log,
    events: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => lines.join(""),
    advance: (ms: number) => (now += ms),
  };
}

describe("the log", () => {
  it("writes a kind of warning or error once per window, then says how many were left out", () => {
    const { log, events, advance } = collected({ windowMs: 10_000 });
    for (let i = 0; i < 5; i++)
      log.error("db", "the database is away", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }));
    log.warn("other", "another kind is written at once");
    advance(10_000);
    log.error("db", "the database is away");
    expect(events().map(({ level, kind, msg, leftOut, outage }) => ({ level, kind, msg, leftOut, outage }))).toEqual([
      { level: "error", kind: "db", msg: "the database is away", leftOut: undefined, outage: "ECONNREFUSED connect ECONNREFUSED" },
      { level: "warn", kind: "other", msg: "another kind is written at once", leftOut: undefined, outage: undefined },
      { level: "error", kind: "db", msg: "the database is away", leftOut: 4, outage: undefined },
    ]);
  });

  it("writes a bug's stack, and an outage as one line without it", () => {
    const { log, events } = collected();
    log.error("bug", "something broke", new TypeError("x is not a function"));
    const [bug] = events();
    expect(bug).toMatchObject({ err: { type: "TypeError", message: "x is not a function" } });
    expect((bug!.err as { stack: string }).stack).toMatch(/^TypeError: x is not a function\n\s+at /);
    // a database that stopped answering (the driver's query timeout) is an outage, not a bug
    log.error("db", "query failed", new Error("Query read timeout"));
    expect(events()[1]).toMatchObject({ kind: "db", outage: "Query read timeout" });
    expect(events()[1]!.err).toBeUndefined();
    // nor is a Redis command that got no answer in time (ioredis's commandTimeout)
    log.error("redis", "command failed", new Error("Command timed out"));
    expect(events()[2]).toMatchObject({ kind: "redis", outage: "Command timed out" });
    expect(events()[2]!.err).toBeUndefined();
  });

  it("puts a child's fields on each of its lines, under the same limits", () => {
    const { log, events } = collected();
    const request = log.child({ requestId: "req-1", playerId: "p-1" });
    request.info("answered");
    request.error("kind", "failed");
    log.child({ requestId: "req-2" }).error("kind", "failed again");
    expect(events().map(({ requestId, msg }) => ({ requestId, msg }))).toEqual([
      { requestId: "req-1", msg: "answered" },
      { requestId: "req-1", msg: "failed" },
    ]);
  });

  it("writes debug lines only at the debug level", () => {
    const quiet = collected();
    quiet.log.debug("detail");
    expect(quiet.log.debugEnabled).toBe(false);
    expect(quiet.events()).toEqual([]);
    const chatty = collected({ level: "debug" });
    chatty.log.debug("detail", { n: 1 });
    expect(chatty.events()).toMatchObject([{ level: "debug", msg: "detail", n: 1 }]);
  });

  it("never writes a configured secret or anything shaped like a credential", () => {
    const secret = 's3cret-value-with-a-quote"-and-more';
    const { log, text } = collected({ secrets: [secret, undefined, "short"] });
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJwbGF5ZXJJZCI6InAifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
    log.info(`configured ${secret}`);
    log.info(`a session ${jwt} in a message`);
    log.info("headers", { headers: { authorization: "Bearer abc.def" }, token: "tok-123456789" });
    log.info("GET /abc?_authToken=tok-abcdef&x=1 and ws://h/room?reconnectionToken=rt-123456");
    log.info("connecting to postgres://casino:db-password-1@db:5432/casino and redis://:redis-pass-1@cache:6379");
    log.error("bug", "failed", new Error(`Authorization: Bearer opaque-token-123 for ${secret}`));
    log.info("a short word is not taken for a secret");
    const out = text();
    for (const leaked of [
      secret,
      JSON.stringify(secret).slice(1, -1),
      jwt,
      "abc.def",
      "tok-123456789",
      "tok-abcdef",
      "rt-123456",
      "db-password-1",
      "redis-pass-1",
      "opaque-token-123",
    ]) {
      expect(out, leaked).not.toContain(leaked);
    }
    // What is not secret stays readable.
    expect(out).toContain("postgres://casino:[redacted]@db:5432/casino");
    expect(out).toContain("&x=1");
    expect(out).toContain("a short word is not taken for a secret");
  });
});
