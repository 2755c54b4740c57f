import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { PHONE } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * Budgets of the production build (`npm test` builds it first): the JS the lobby's entry loads, the
 * games kept out of it in lazy chunks, and the first meaningful paint in headless Chromium.
 */
const DIST = "client/dist";
const ENTRY_BUDGET_BYTES = 150 * 1000;
const FIRST_PAINT_BUDGET_MS = 1000;
/**
 * The machine runs other tests meanwhile, so the budget is held by the best of several cold loads: at
 * least 5 (for the printed spread), and up to 15 while none is within it.
 */
const MIN_LOADS = 5;
const MAX_LOADS = 15;

interface ChunkInfo {
  fileName: string;
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  modules: string[];
}
const chunks: ChunkInfo[] = JSON.parse(readFileSync(`${DIST}/.vite/chunks.json`, "utf8"));
const byName = new Map(chunks.map((c) => [c.fileName, c]));
const gzipped = (file: string) => gzipSync(readFileSync(`${DIST}/${file}`)).length;

/** The chunks loaded before anything is lazily imported: the page's scripts and their static imports. */
function staticGraph(roots: string[]): ChunkInfo[] {
  const seen = new Map<string, ChunkInfo>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    const chunk = byName.get(name)!;
    seen.set(name, chunk);
    chunk.imports.forEach(visit);
  };
  roots.forEach(visit);
  return [...seen.values()];
}

/** The scripts index.html loads (the bundler may hoist the entry's one static import into the page). */
const html = readFileSync(`${DIST}/index.html`, "utf8");
const pageScripts = [...html.matchAll(/<script[^>]*\ssrc="\/([^"]+)"/g)].map((m) => m[1]);
const initial = staticGraph(pageScripts);
const initialModules = initial.flatMap((c) => c.modules);
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
/** What the lobby shows of every game (its icon and picture) and the registry that lists them: no table code. */
const isLobby = (m: string) => /^src\/games\/(registry\.ts|shared\/lobby-art\.tsx|[^/]+\/lobby\.tsx)$/.test(m);

describe("the lobby's entry", () => {
  it("is the scripts index.html loads, within 150 kB of gzipped JS", () => {
    expect(pageScripts.length).toBeGreaterThan(0);
    for (const script of pageScripts) expect(byName.has(script), script).toBe(true);
    const sizes = initial.map((c) => [c.fileName, gzipped(c.fileName)] as const);
    const total = sizes.reduce((sum, [, size]) => sum + size, 0);
    const room = chunks.find((c) => c.modules.some((m) => m.endsWith("src/net/room.ts")))!;
    console.log(
      [
        "lobby entry JS (gzip):",
        ...sizes.map(([name, size]) => `  ${name} ${kb(size)}`),
        `  total ${kb(total)} (budget ${kb(ENTRY_BUDGET_BYTES)})`,
        `room connection chunk, fetched once the signed-in page is painted and the browser idle: ${room.fileName} ${kb(gzipped(room.fileName))}`,
      ].join("\n"),
    );
    expect(total).toBeLessThanOrEqual(ENTRY_BUDGET_BYTES);
  });

  it("holds no game table, no engine barrel, no zod and no Discord SDK", () => {
    expect(initialModules.filter((m) => m.startsWith("src/games/") && !isLobby(m))).toEqual([]);
    expect(initialModules.filter((m) => m.includes("node_modules/@discord/"))).toEqual([]);
    expect(initialModules.filter((m) => m.includes("node_modules/zod/"))).toEqual([]);
    expect(initialModules.filter((m) => /common\/src\/(index|games\/|fairness\/)/.test(m))).toEqual([]);
  });

  it("loads each game's table as a lazy chunk of its own", () => {
    const gameOf = (m: string) => (isLobby(m) ? undefined : /^src\/games\/([^/]+)\//.exec(m)?.[1]);
    for (const chunk of chunks) {
      const games = new Set(chunk.modules.map(gameOf).filter(Boolean));
      expect(games.size, `${chunk.fileName} mixes ${[...games].join(", ")}`).toBeLessThanOrEqual(1);
      if (games.size === 1) expect(initial).not.toContain(chunk);
    }
  });
});

describe("first meaningful paint", () => {
  const { server: t, browser } = setupBrowserApp({ env: { CLIENT_DIST: DIST }, redis: false });

  it("shows the lobby heading within 1 s of navigation in headless Chromium (best of 5 to 15 cold loads)", async () => {
    const runs: { lobby: number; fcp: number }[] = [];
    const withinBudget = () => runs.some((r) => r.lobby <= FIRST_PAINT_BUDGET_MS);
    for (let i = 0; i < MAX_LOADS && (i < MIN_LOADS || !withinBudget()); i++) {
      // A fresh context each time: a first visit, no cache, a new guest.
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await page.addInitScript(() => {
        const w = window as unknown as { lobbyAt?: number };
        const check = () => {
          const heading = document.querySelector('[data-testid="lobby-heading"]');
          if (heading && heading.getBoundingClientRect().height > 0) w.lobbyAt = performance.now();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      });
      await page.goto(t.baseUrl);
      await page.waitForFunction(() => (window as unknown as { lobbyAt?: number }).lobbyAt !== undefined, null, { timeout: 20_000 });
      runs.push(
        await page.evaluate(() => ({
          lobby: Math.round((window as unknown as { lobbyAt: number }).lobbyAt),
          fcp: Math.round(performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1),
        })),
      );
      await context.close();
    }
    const best = Math.min(...runs.map((r) => r.lobby));
    const sorted = runs.map((r) => r.lobby).sort((a, b) => a - b);
    console.log(
      `first meaningful paint (navigation start → lobby heading visible), ${runs.length} cold loads: ${runs.map((r) => `${r.lobby} ms`).join(", ")}; ` +
        `best ${best} ms, median ${sorted[Math.floor(sorted.length / 2)]} ms; first contentful paint ${runs.map((r) => `${r.fcp} ms`).join(", ")}`,
    );
    expect(best).toBeLessThanOrEqual(FIRST_PAINT_BUDGET_MS);
  });
});
