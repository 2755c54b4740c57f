import { defineConfig } from "vitest/config";

/**
 * Projects: pure common code; the server against the real PostgreSQL (a fresh database per run) and
 * against embedded PGlite; the client's hooks, stores and connection in a simulated DOM (happy-dom, the
 * Colyseus SDK and fetch faked at the network edge), and the client whole in real headless Chromium.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: "common", include: ["common/test/**/*.test.ts"], testTimeout: 60_000 } },
      {
        test: {
          name: "server-postgres",
          include: ["server/test/**/*.test.ts"],
          env: { TEST_DB: "postgres" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "server-pglite",
          include: ["server/test/**/*.test.ts"],
          env: { TEST_DB: "pglite" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "loadtest",
          include: ["loadtest/test/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "client-unit",
          include: ["client/test/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["client/test/setup.ts"],
        },
      },
      {
        test: {
          name: "client-e2e",
          include: ["client/e2e/**/*.test.ts"],
          env: { TEST_DB: "postgres" },
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file has its own server, database, Redis database, Chromium and fake Discord host
          // address (client/e2e/browser-app.ts), so files run side by side; most of their time is spent
          // waiting on the browser and the server. A group of its own, after the other projects.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
