import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../src/games/registry";

/**
 * A game's knowledge lives in its folders (common/src/games/<game>/: engine, exact RTP; and
 * client/src/games/<game>/: table, lobby art) and its entry in the catalogue; the rest of the code loops
 * over the catalogue. This test fails when
 * a central file starts switching on game ids again: a `case "<game>"` outside the game's own files, or
 * a map with an entry per game (three or more chance games as keys) outside the registries.
 */
const ROOT = new URL("../../", import.meta.url);
const SCANNED = ["common/src", "common/scripts", "server/src", "client/src", "loadtest", "bench"];
const GAMES = Object.keys(ENGINES);

/** The files that list every game, by design. */
const REGISTRIES = new Set([
  // the one registry: each game's card and the loader of its engine
  "common/src/catalogue.ts",
  // generated from each game's rtp.ts by `npm run docs:games`
  "common/src/rtp-table.ts",
  // a load scenario plays a chosen few multi-step games; a new game need not join it
  "loadtest/scenarios/multi-step.ts",
]);

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(new URL(dir, ROOT))) {
    const path = `${dir}/${name}`;
    if (name === "node_modules" || name === "dist") continue;
    if (statSync(new URL(path, ROOT)).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** The game whose own files these are (its engine, its RTP computation, its table), if any. */
function ownerOf(path: string): string | undefined {
  const m = /^(?:common|client)\/src\/games\/([a-z-]+)\//.exec(path);
  return m?.[1];
}

const escape = (s: string) => s.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&");
const FILES = SCANNED.flatMap(sourceFiles).map((path) => ({ path, text: readFileSync(new URL(path, ROOT), "utf8") }));

describe("no central switch on game ids", () => {
  it("scans the sources and knows the games", () => {
    expect(GAMES.length).toBeGreaterThan(10);
    expect(FILES.some((f) => f.path === "common/src/games/odds.ts")).toBe(true);
    expect(FILES.some((f) => f.path === "common/src/games/dice/engine.ts")).toBe(true);
  });

  it('has no `case "<game>"` outside the game\'s own files', () => {
    const found = FILES.flatMap(({ path, text }) =>
      GAMES.filter((game) => game !== ownerOf(path) && new RegExp(`case\\s+["'\`]${escape(game)}["'\`]`).test(text)).map(
        (game) => `${path}: case "${game}"`,
      ),
    );
    expect(found).toEqual([]);
  });

  it("has no map with an entry per game outside the registries", () => {
    const found = FILES.filter(({ path }) => !REGISTRIES.has(path)).flatMap(({ path, text }) => {
      const keyed = GAMES.filter((game) => new RegExp(`^\\s*(["']?)${escape(game)}\\1\\s*:`, "m").test(text));
      return keyed.length >= 3 ? [`${path}: ${keyed.join(", ")}`] : [];
    });
    expect(found).toEqual([]);
  });
});
