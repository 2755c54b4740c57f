import { describe, expect, it } from "vitest";
import { ConfigError, IN_MEMORY, directDatabaseUrl, loadConfig, loadDeploymentAccess, secretsOf } from "../../src/platform/config";

describe("configuration", () => {
  it("keeps DATA_DIR=memory:// as the in-memory marker instead of resolving it to a folder", () => {
    const config = loadConfig({ DATA_DIR: IN_MEMORY });
    expect(config.dataDir).toBe(IN_MEMORY);
    expect(config.sessionSecret.length).toBeGreaterThanOrEqual(32);
  });

  it("reads TRUST_PROXY as hops or addresses, and refuses true", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8" }).trustProxy).toBe("loopback,10.0.0.0/8");
    expect(() => loadConfig({ TRUST_PROXY: "true" })).toThrow(/TRUST_PROXY.*not true/);
    expect(() => loadConfig({ TRUST_PROXY: "my-proxy" })).toThrow(/TRUST_PROXY/);
  });

  it("reads CORS_ORIGINS as a list of origins", () => {
    expect(loadConfig({}).corsOrigins).toEqual([]);
    expect(loadConfig({ CORS_ORIGINS: "https://a.example, http://localhost:5173" }).corsOrigins).toEqual([
      "https://a.example",
      "http://localhost:5173",
    ]);
    expect(() => loadConfig({ CORS_ORIGINS: "https://a.example/path" })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ CORS_ORIGINS: "*" })).toThrow(/CORS_ORIGINS/);
  });

  it("keeps the room's message backstop above the bet burst", () => {
    expect(loadConfig({}).roomMaxMessagesPerSecond).toBe(80);
    expect(loadConfig({ BET_RATE_PER_SECOND: "100" }).roomMaxMessagesPerSecond).toBe(400);
    expect(loadConfig({ ROOM_MAX_MESSAGES_PER_SECOND: "25" }).roomMaxMessagesPerSecond).toBe(25);
  });

  it("names the variable and the reason of a bad value", () => {
    expect(() => loadConfig({ PORT: "seventy" })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: "seventy" })).toThrow(/PORT/);
  });

  it("reads the retention rules and database timeouts, with their defaults", () => {
    const config = loadConfig({ DATA_DIR: IN_MEMORY });
    expect(config.retention).toEqual({ processedRequestDays: 7, abandonedRoundMinutes: 60, guestArchiveDays: 30, sweepSeconds: 60 });
    expect(config.dbTimeouts).toEqual({ connectMs: 5000, statementMs: 5000, queryMs: 6000, healthMs: 1000 });
    expect(loadConfig({ DATA_DIR: IN_MEMORY, ABANDONED_ROUND_MINUTES: "15" }).retention.abandonedRoundMinutes).toBe(15);
  });

  it("refuses timeouts and retention periods that contradict each other", () => {
    expect(() => loadConfig({ DATA_DIR: IN_MEMORY, DB_STATEMENT_TIMEOUT_MS: "8000" })).toThrow(
      /DB_QUERY_TIMEOUT_MS: must be longer than DB_STATEMENT_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ DATA_DIR: IN_MEMORY, PROCESSED_REQUEST_RETENTION_DAYS: "1", ABANDONED_ROUND_MINUTES: "2000" })).toThrow(
      /PROCESSED_REQUEST_RETENTION_DAYS/,
    );
    expect(() => loadConfig({ DATA_DIR: IN_MEMORY, GUEST_ARCHIVE_DAYS: "0" })).toThrow(/GUEST_ARCHIVE_DAYS/);
  });

  it("keeps the ledger and the rounds forever unless an archival is set, and keeps at least two months", () => {
    expect(loadConfig({ DATA_DIR: IN_MEMORY }).archive).toEqual({ afterMonths: null, dir: null });
    expect(loadConfig({ DATA_DIR: "/srv/casino", SESSION_SECRET: "s".repeat(32) }).archive).toEqual({
      afterMonths: null,
      dir: "/srv/casino/archive",
    });
    expect(loadConfig({ DATA_DIR: IN_MEMORY, ARCHIVE_AFTER_MONTHS: "13", ARCHIVE_DIR: "/archive" }).archive).toEqual({
      afterMonths: 13,
      dir: "/archive",
    });
    expect(() => loadConfig({ DATA_DIR: IN_MEMORY, ARCHIVE_AFTER_MONTHS: "1" })).toThrow(/ARCHIVE_AFTER_MONTHS/);
  });

  it("reads a transaction pooler in front of PostgreSQL only with PostgreSQL's own URL for the migrations and tools", () => {
    const pooled = { DATA_DIR: IN_MEMORY, DATABASE_URL: "postgres://pgbouncer:6432/casino", DATABASE_POOLER: "transaction" };
    const config = loadConfig({ ...pooled, DATABASE_DIRECT_URL: "postgres://app:secret@postgres:5432/casino" });
    expect(config.transactionPooler).toEqual({ directUrl: "postgres://app:secret@postgres:5432/casino" });
    expect(directDatabaseUrl(config)).toBe("postgres://app:secret@postgres:5432/casino");
    expect(secretsOf(config)).toContain("secret");
    expect(() => loadConfig(pooled)).toThrow(/DATABASE_DIRECT_URL: must be set with DATABASE_POOLER/);
    expect(() => loadConfig({ ...pooled, DATABASE_POOLER: "statement" })).toThrow(/DATABASE_POOLER/);
    const plain = loadConfig({ DATA_DIR: IN_MEMORY, DATABASE_URL: "postgres://postgres:5432/casino" });
    expect(plain.transactionPooler).toBeUndefined();
    expect(directDatabaseUrl(plain)).toBe("postgres://postgres:5432/casino");
  });

  it("demands a deployment's database URL and session secret of a tool acting on it from outside", () => {
    const secret = "s".repeat(32);
    expect(loadDeploymentAccess({ DATABASE_URL: "postgres://db/casino", SESSION_SECRET: secret })).toEqual({
      databaseUrl: "postgres://db/casino",
      sessionSecret: secret,
    });
    // Behind a pooler, PostgreSQL itself: the tool migrates under an advisory lock.
    const pooled = {
      DATABASE_URL: "postgres://pgbouncer:6432/casino",
      DATABASE_DIRECT_URL: "postgres://db:5432/casino",
      SESSION_SECRET: secret,
    };
    expect(loadDeploymentAccess(pooled).databaseUrl).toBe("postgres://db:5432/casino");
    expect(() => loadDeploymentAccess({ SESSION_SECRET: secret })).toThrow(ConfigError);
    expect(() => loadDeploymentAccess({ DATABASE_URL: "postgres://db/casino", SESSION_SECRET: " " })).toThrow(/SESSION_SECRET.*required/);
    expect(() => loadDeploymentAccess({ DATABASE_URL: "mysql://db", SESSION_SECRET: secret })).toThrow(/DATABASE_URL: must be a postgres/);
    expect(() => loadDeploymentAccess({ DATABASE_URL: "postgres://db", SESSION_SECRET: "short" })).toThrow(/at least 32 characters/);
  });
});
