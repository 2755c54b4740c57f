import { configDefaults, defineConfig } from "vitest/config";

/**
 * The suite in tiers, each a group of projects that `npm test` runs one after the other (a group's files
 * run in parallel) and that can be run alone (`npm run test:unit`, `test:stats`, `test:server`,
 * `test:embedded`, `test:e2e`; see CONTRIBUTING.md):
 *
 * 1. unit: pure common code, the client's hooks and stores in a simulated DOM, and the server's code
 *    that needs no database, Redis or network (`server/test/unit/`). CPU-bound: one worker a core.
 * 2. stats: the common code's statistical and exhaustive proofs (`*.stats.test.ts`: each game's Monte
 *    Carlo run, rounding rule 2 over every outcome, whole shoes against the solo engine) and the tests
 *    that start the verify command as a process (`*.process.test.ts`). Seconds each, where a unit test
 *    takes milliseconds; they prove the same code the unit tier checks, so they run after it.
 * 3. server: the server against the real PostgreSQL and Redis (each file its own database, copied from a
 *    template migrated once per run, and its own Redis database), the load tool's smoke test, and the
 *    embedded default (PGlite and the in-memory Redis stand-in) for what proves it: migrations and the
 *    schema, the money path, the queueing of transactions, restart. Mostly waiting on I/O: more files
 *    than cores.
 * 4. browser: the client whole in real headless Chromium against real servers.
 */
const SERVER_WORKERS = 3;

/**
 * The server and browser files share their worker's loaded modules (`isolate: false`): each file still
 * starts its own app, database, Redis database and browser, so nothing of one file's state reaches the
 * next, and the server's code is loaded once per worker instead of once per file (about 1 s of a server
 * file, 4 s of a browser file).
 */
const SHARED_MODULES = { isolate: false };

/** The files that run a server in the test's process load its runtime first, as the server's entry does (colyseus-runtime.ts). */
const SERVER_RUNTIME = "server/test/setup-runtime.ts";

/** The common tests of the stats tier, which the unit tier's `common` project leaves out. */
const COMMON_SLOW = ["common/test/**/*.stats.test.ts", "common/test/**/*.process.test.ts"];

/**
 * The common tests share their worker's loaded modules too (`isolate: false`): they test pure code, mock
 * no module and restore what they spy on, so nothing one file does reaches the next, and the engines and
 * their RTP computations are loaded once per worker instead of once per file.
 */
const PURE = { isolate: false };

/**
 * What the embedded default must prove on its own database and in-memory Redis stand-in: migrations and
 * the schema (its tables partitioned by month too), the money path and its idempotency, the queueing of transactions, the audit, restart, and
 * what reads the stand-in (leaderboards, presence and feeds). The rest of the server is database-agnostic
 * (the same SQL on the same PostgreSQL engine) and runs on PostgreSQL alone.
 */
const EMBEDDED = [
  "server/test/schema.test.ts",
  "server/test/pglite-settings.test.ts",
  "server/test/casino-room.test.ts",
  "server/test/idempotency.test.ts",
  "server/test/partitions.test.ts",
  "server/test/archive.test.ts",
  "server/test/group-commit.test.ts",
  "server/test/money-races.test.ts",
  "server/test/audit.test.ts",
  "server/test/leaderboard.test.ts",
  "server/test/together.test.ts",
  "server/test/rest.test.ts",
  "server/test/embedded-default.test.ts",
  "server/test/player-totals.test.ts",
];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "common",
          ...PURE,
          include: ["common/test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...COMMON_SLOW],
          // computed once per run for both common projects (see exact-rtp.ts)
          globalSetup: ["common/test/exact-rtp.ts"],
          testTimeout: 60_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "common-stats",
          ...PURE,
          include: COMMON_SLOW,
          globalSetup: ["common/test/exact-rtp.ts"],
          testTimeout: 60_000,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: "client-unit",
          include: ["client/test/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["client/test/setup.ts"],
          testTimeout: 60_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "bench",
          include: ["bench/test/**/*.test.ts"],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "server-unit",
          include: ["server/test/unit/**/*.test.ts"],
          testTimeout: 60_000,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "server-postgres",
          ...SHARED_MODULES,
          include: ["server/test/*.test.ts"],
          setupFiles: [SERVER_RUNTIME],
          env: { TEST_DB: "postgres" },
          globalSetup: ["server/test/template-database.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: SERVER_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: "server-pglite",
          ...SHARED_MODULES,
          include: EMBEDDED,
          setupFiles: [SERVER_RUNTIME],
          env: { TEST_DB: "pglite" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          maxWorkers: SERVER_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: "loadtest",
          include: ["loadtest/test/**/*.test.ts"],
          setupFiles: [SERVER_RUNTIME],
          globalSetup: ["server/test/template-database.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
          maxWorkers: SERVER_WORKERS,
          sequence: { groupOrder: 2 },
        },
      },
      {
        test: {
          name: "client-e2e",
          ...SHARED_MODULES,
          include: ["client/e2e/**/*.test.ts"],
          setupFiles: [SERVER_RUNTIME],
          globalSetup: ["server/test/template-database.ts"],
          env: { TEST_DB: "postgres" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file has its own server, database, Redis database, Chromium and fake Discord host
          // address (client/e2e/browser-app.ts), so files run side by side. Most of their time is Chromium's
          // CPU; two workers left a fifth of two cores idle while the browser waited on the server, three
          // keep them busy.
          maxWorkers: 3,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
