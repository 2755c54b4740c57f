import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

/**
 * Budgets of the production build (`npm test` builds it first): the JS the lobby's entry loads and the
 * games kept out of it in lazy chunks. The time to the first meaningful paint is a benchmark
 * (`npm run bench:paint`), not a test: a timed assertion here would measure the machine's other work.
 */
const DIST = "client/dist";
const ENTRY_BUDGET_BYTES = 150 * 1000;

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
