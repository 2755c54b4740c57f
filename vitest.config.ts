import { defineConfig } from "vitest/config";

/**
 * Projects: pure common code; the server against the real PostgreSQL (a fresh database per run) and
 * against embedded PGlite; the client in real headless Chromium.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: "common", include: ["common/test/**/*.test.ts"], testTimeout: 60_000 } },
    ],
  },
});
