import { readdirSync, readFileSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../src/games/registry";

/**
 * A game's knowledge lives in its folders (common/src/games/<game>/: engine, exact RTP; and
 * client/src/games/<game>/: table, lobby art) and its entry in the catalogue; the rest of the code loops
 * over the catalogue. This test fails when
 * a central file starts switching on game ids again: a `case "<game>"` outside the game's own files, or
 * a map with an entry per game (three or more chance games as keys) outside the registries, in the
 * sources or in the tests (a test reads a game's cases from the game's own test files).
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
  // the click-to-result benchmark drives the tables it measures; a new game need not join it
  "bench/feedback.ts",
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
const read = (path: string) => ({ path, text: readFileSync(new URL(path, ROOT), "utf8") });
const FILES = SCANNED.flatMap(sourceFiles).map(read);
/** The tests (loadtest's are among the sources above). */
const TESTS = ["common/test", "server/test", "client/test", "client/e2e"].flatMap(sourceFiles).map(read);
/** A game as a map's key or a list entry's id. */
const keyedIn = (text: string) =>
  GAMES.filter((game) => new RegExp(`^\\s*(["']?)${escape(game)}\\1\\s*:|^\\s*(?:\\{\\s*)?id:\\s*["']${escape(game)}["']`, "m").test(text));

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

  it("has no map with an entry per game outside the registries, in the sources or the tests", () => {
    expect(TESTS.some((f) => f.path === "server/test/games-room.test.ts")).toBe(true);
    const found = [...FILES, ...TESTS]
      .filter(({ path }) => !REGISTRIES.has(path))
      .flatMap(({ path, text }) => {
        const keyed = keyedIn(text);
        return keyed.length >= 3 ? [`${path}: ${keyed.join(", ")}`] : [];
      });
    expect(found).toEqual([]);
  });
});

/**
 * The files outside a game's folders that may name it, and why: each is a feature built on one or a few
 * games (the shared crash round, the shared blackjack table), a benchmark or load scenario that chose its
 * games, or generated. A game named anywhere else is knowledge that belongs in its folder.
 */
const BEYOND_ONE_GAME: Record<string, { games: string[]; why: string }> = {
  "common/src/rtp-table.ts": { games: GAMES, why: "generated from each game's rtp.ts" },
  "bench/feedback.ts": { games: GAMES, why: "the click-to-result benchmark drives each table it measures" },
  "bench/leaderboard.ts": { games: ["dice"], why: "benchmark bets" },
  "bench/scenarios/steady-bets.ts": { games: ["dice"], why: "benchmark bets" },
  "loadtest/scenarios/dice-spam.ts": { games: ["dice"], why: "a load scenario's bet" },
  "loadtest/scenarios/reconnect-storm.ts": { games: ["dice"], why: "a load scenario's bet" },
  "loadtest/scenarios/leaderboard.ts": { games: ["coin-flip"], why: "a load scenario's bet" },
  "loadtest/scenarios/multi-step.ts": { games: ["hi-lo", "video-poker"], why: "a load scenario's multi-step games" },
  "loadtest/scenarios/crash.ts": { games: ["crash"], why: "the shared crash round" },
  "loadtest/scenario.ts": { games: ["crash"], why: "the shared crash round" },
  "common/src/crash-room.ts": { games: ["crash"], why: "the shared crash room's messages" },
  "common/src/rooms.ts": { games: ["crash"], why: "the shared crash room's name" },
  "common/src/together.ts": { games: ["crash"], why: "the shared crash round in the activity's feed" },
  "server/src/crash/crash-room.ts": { games: ["crash"], why: "the shared crash room" },
  "server/src/crash/crash-recovery.ts": { games: ["crash"], why: "the shared crash room" },
  "server/src/crash/crash-store.ts": { games: ["crash"], why: "the shared crash room" },
  "server/src/crash/crash-money.ts": { games: ["crash"], why: "the shared crash room's money" },
  "server/src/core/ledger/engine/announcements.ts": { games: ["crash"], why: "the shared crash room's reason for a balance change" },
  "server/src/core/metrics.ts": { games: ["crash"], why: "the shared crash room's bets" },
  "server/src/app.ts": { games: ["crash"], why: "wires the shared crash room (server/src/crash/) into the server" },
  "server/src/services.ts": { games: ["crash"], why: "the shared crash room's store among the services" },
  "server/src/ledger.ts": { games: ["crash"], why: "the shared crash room's money among the products' money" },
  "client/src/features/together/TogetherPanel.tsx": { games: ["crash", "blackjack"], why: "the shared rounds in the activity" },
  "client/src/features/together/TogetherService.tsx": { games: ["blackjack"], why: "the shared blackjack table" },
  "server/src/together/together.ts": { games: ["crash", "blackjack"], why: "the shared rounds in the activity" },
  "client/src/features/game-host/GameHost.tsx": { games: ["crash", "blackjack"], why: "the shared rounds offered to their tables" },
  "client/src/features/lobby/GamesTab.tsx": {
    games: ["blackjack", "poker"],
    why: "the shared tables' Join (blackjack's, and Hold'em's on the poker tile)",
  },
  "client/src/games/contract.ts": { games: ["blackjack"], why: "the shared blackjack table's connection" },
  "client/src/net/table-room.ts": { games: ["blackjack"], why: "the shared blackjack table" },
  "client/src/net/together-room.ts": { games: ["blackjack"], why: "the shared blackjack table" },
  "common/src/table-schemas.ts": { games: ["blackjack"], why: "the shared blackjack table" },
  "common/src/together-schemas.ts": { games: ["blackjack"], why: "the shared blackjack table" },
  "server/src/table/table-store.ts": { games: ["blackjack"], why: "the shared blackjack table" },
  "server/src/table/table-money.ts": { games: ["blackjack"], why: "the shared blackjack table's money" },
  "common/src/games/crash-chain.ts": { games: ["crash", "limbo"], why: "the shared crash round's chain (limbo's multiplier)" },
  "common/src/games/blackjack-table.ts": { games: ["blackjack"], why: "the shared blackjack table's rules" },
  "common/src/games/crash/rtp.ts": { games: ["limbo"], why: "a crash bet's return is limbo's at the same target" },
  "server/src/platform/db/migrations/1764100000007-double-entry-accounts.ts": {
    games: ["crash", "blackjack"],
    why: "books the shared rooms' past entries to their house accounts (a migration carries its data literally)",
  },
  "common/scripts/game-docs.ts": { games: ["baccarat"], why: "writes the baccarat table's exact win probabilities beside the RTPs" },
};

/** The game's id as a string, or a path into its folder. */
const names = (text: string, game: string) => new RegExp(`["'\`]${escape(game)}["'\`]|[./]${escape(game)}/`).test(text);

describe("a game lives in its folders", () => {
  it("is named outside them only by the catalogue and the features beyond one game", () => {
    const sources = FILES.filter(({ path }) => path !== "common/src/catalogue.ts" && !/\/test\//.test(path));
    const found = sources.flatMap(({ path, text }) =>
      GAMES.filter((game) => game !== ownerOf(path) && names(text, game) && !BEYOND_ONE_GAME[path]?.games.includes(game)).map(
        (game) => `${path} names ${game}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it("finds a game named outside its folders (the finder itself)", () => {
    expect(names(`import { x } from "../games/keno/engine";`, "keno")).toBe(true);
    expect(names(`if (game === "keno") return;`, "keno")).toBe(true);
    expect(names(`// keno draws ten numbers`, "keno")).toBe(false);
  });
});
