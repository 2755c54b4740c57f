import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Rules of the architecture, checked on the source: server/src is laid out by product over a core and a
 * platform, and each floor imports only the floors below it; only the ledger's engine
 * (server/src/core/ledger/engine/) writes players.balance (in SQL, or by queueing the write batch's
 * balance move), the engine imports no product and is imported only through its index, and no module of
 * server/src or common/src imports itself through others. (Import boundaries between the packages are
 * checked by ESLint.)
 */
const REPO = join(import.meta.dirname, "..", "..", "..");
const SERVER_SRC = join(REPO, "server", "src");
const PLATFORM_DIR = join(SERVER_SRC, "platform") + sep;
const CORE_DIR = join(SERVER_SRC, "core") + sep;
const ENGINE_DIR = join(CORE_DIR, "ledger", "engine") + sep;
const ENGINE_INDEX = join(ENGINE_DIR, "index.ts");
/** The products: each folder holds its rooms, routes, stores and money. */
const PRODUCTS = ["casino", "crash", "table", "holdem", "together", "leaderboard", "skill", "progress"];
/** Above the products: what wires them into one server, and the operators' tools. */
const COMPOSITION = ["ledger.ts", "services.ts", "announced.ts", "app.ts", "main.ts", "ops", "admin"];

function sourceFiles(dir: string, name = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name), name) : name.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/**
 * The statements of a source text that write a player's balance: SQL, a TypeORM update/insert of the
 * column, or a balance move queued in the ledger's write batch.
 */
export function balanceWrites(text: string): string[] {
  // SQL is read one string literal at a time, so a statement never borrows a word from its neighbour.
  const literals = [...text.matchAll(/`[^`]*`|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g)].map((m) => m[0]);
  const sql = literals.filter((l) =>
    /UPDATE\s+players\b[\s\S]*\bSET\b[\s\S]*\bbalance\s*=|INSERT\s+INTO\s+players\s*\([^)]*\bbalance\b/i.test(l),
  );
  const orm = [...text.matchAll(/\.(update|insert|save|increment|decrement)\s*\([^;]*\bbalance\b/g)].map((m) => m[0]);
  // The write batch's balance move (WriteBatch.move, core/ledger/engine/writes.ts): the only \`move\` in server/src.
  const batch = [...text.matchAll(/\.move\s*\([^;]*\)/g)].map((m) => m[0]);
  return [...sql, ...orm, ...batch];
}

describe("only the ledger's engine writes balances", () => {
  it("finds a balance write wherever it is written (the scanner itself)", () => {
    expect(balanceWrites("await q(`UPDATE players SET balance = balance + $2 WHERE id = $1`)")).toHaveLength(1);
    expect(balanceWrites("await q(`UPDATE players\n   SET username = $2, balance = 5`)")).toHaveLength(1);
    expect(balanceWrites("q(`INSERT INTO players (discord_id, balance) VALUES ($1, $2)`)")).toHaveLength(1);
    expect(balanceWrites("q(`UPDATE players SET last_reminder_sent = now()`); state.balance = 1;")).toHaveLength(0);
    expect(balanceWrites("repo.update({ id }, { balance: 10 })")).toHaveLength(1);
    expect(balanceWrites("repo.increment({ id }, 'balance', 5)")).toHaveLength(1);
    expect(balanceWrites("q(`SELECT balance FROM players WHERE id = $1`)")).toHaveLength(0);
    expect(balanceWrites("q(`UPDATE players SET last_daily_spin = $2 WHERE id = $1`)")).toHaveLength(0);
    expect(balanceWrites("ctx.writes.move(playerId, 0, true);")).toHaveLength(1);
    expect(balanceWrites("w.move(ctx.player.id, delta, false);")).toHaveLength(1);
    expect(balanceWrites("ctx.writes.add(`UPDATE fairness_seeds SET active = false`);")).toHaveLength(0);
  });

  it("finds none outside server/src/core/ledger/engine/ (the ledger's products included)", () => {
    const offenders = sourceFiles(SERVER_SRC)
      .filter((file) => !file.startsWith(ENGINE_DIR))
      .flatMap((file) => balanceWrites(readFileSync(file, "utf8")).map((w) => `${relative(SERVER_SRC, file)}: ${w.replace(/\s+/g, " ")}`));
    expect(offenders).toEqual([]);
  });

  it("finds the engine's own writes (so the scan really reads the tree)", () => {
    const inEngine = sourceFiles(ENGINE_DIR).flatMap((file) => balanceWrites(readFileSync(file, "utf8")));
    expect(inEngine.length).toBeGreaterThan(0);
  });
});

const imports = (files: string[]) => files.flatMap((file) => localImports(file).map((to) => ({ from: file, to })));
const show = ({ from, to }: { from: string; to: string }) => `${relative(SERVER_SRC, from)} -> ${relative(SERVER_SRC, to)}`;
/** A file that defines a room. */
const ROOM_CLASS = /\bextends\s+Room\b/;
/** The top-level entry of server/src a file stands in: a folder's name, or the file's own name. */
const homeOf = (file: string) => relative(SERVER_SRC, file).split(sep)[0]!;

describe("the ledger's engine stands apart from its products", () => {
  it("the engine imports only itself, the platform and the metrics", () => {
    const engine = sourceFiles(ENGINE_DIR);
    expect(engine.length).toBeGreaterThan(3);
    const outward = imports(engine).filter(
      ({ to }) => !to.startsWith(ENGINE_DIR) && !to.startsWith(PLATFORM_DIR) && to !== join(CORE_DIR, "metrics.ts"),
    );
    expect(outward.map(show)).toEqual([]);
  });

  it("everything else reaches the engine through its index only", () => {
    const outside = sourceFiles(SERVER_SRC).filter((file) => !file.startsWith(ENGINE_DIR));
    const all = imports(outside).filter(({ to }) => to.startsWith(ENGINE_DIR));
    // the products' money does import the engine (so the rule below is about real imports)
    expect(all.filter(({ from }) => PRODUCTS.includes(homeOf(from))).length).toBeGreaterThan(3);
    expect(all.filter(({ to }) => to !== ENGINE_INDEX).map(show)).toEqual([]);
  });
});

/**
 * The floors of server/src, from the ground: platform/ (configuration, log, clock, errors, the database
 * and Redis), core/ (the ledger's engine, players, seeds, sessions, the player event channel, metrics,
 * and the plumbing rooms and routers share), the products (PRODUCTS), and above them what wires them
 * into one server (COMPOSITION). A floor imports only the floors below it; a product may use another
 * product's services, never its room; a room or router takes the services it uses (a `Pick` of
 * `CoreServices` and its product's own), never the whole `Services` of services.ts.
 */
describe("each floor imports only the floors below it", () => {
  const all = sourceFiles(SERVER_SRC);
  const roomFiles = new Set(all.filter((file) => ROOM_CLASS.test(readFileSync(file, "utf8"))));

  it("knows every entry of server/src as a floor's", () => {
    const entries = readdirSync(SERVER_SRC).sort();
    expect(entries).toEqual(["core", "platform", ...PRODUCTS, ...COMPOSITION].sort());
    expect(roomFiles.size).toBeGreaterThan(5);
  });

  it("the platform imports neither the core nor a product", () => {
    const upward = imports(all.filter((f) => f.startsWith(PLATFORM_DIR))).filter(({ to }) => !to.startsWith(PLATFORM_DIR));
    expect(upward.map(show)).toEqual([]);
  });

  it("the core imports no product and nothing that wires them", () => {
    const upward = imports(all.filter((f) => f.startsWith(CORE_DIR))).filter(
      ({ to }) => !to.startsWith(CORE_DIR) && !to.startsWith(PLATFORM_DIR),
    );
    expect(upward.map(show)).toEqual([]);
  });

  it("a product imports nothing that wires the products (services.ts, ledger.ts, ...), and no other product's room", () => {
    const products = all.filter((f) => PRODUCTS.includes(homeOf(f)));
    expect(products.length).toBeGreaterThan(20);
    const wrong = imports(products).filter(
      ({ from, to }) => COMPOSITION.includes(homeOf(to)) || (homeOf(to) !== homeOf(from) && roomFiles.has(to)),
    );
    expect(wrong.map(show)).toEqual([]);
  });

  it("only what wires the server imports the whole Services (rooms and routers name what they use)", () => {
    const services = join(SERVER_SRC, "services.ts");
    const importers = imports(all)
      .filter(({ to }) => to === services)
      .map(({ from }) => homeOf(from));
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((home) => !COMPOSITION.includes(home))).toEqual([]);
  });

  it("nothing in server/ imports the root ormconfig.ts (it re-exports the data source of platform/db/)", () => {
    const root = join(REPO, "ormconfig.ts");
    const server = [...all, ...sourceFiles(join(REPO, "server", "test"))];
    expect(
      imports(server)
        .filter(({ to }) => to === root)
        .map(show),
    ).toEqual([]);
  });
});

/**
 * The modules a source file imports (type-only imports and re-exports included: a circle closed by a
 * type is still a circle), resolved to files of the same tree; package imports are left out (common
 * never imports server, so no circle crosses them).
 */
function localImports(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => {
      const base = join(dirname(file), name);
      return [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find(
        (candidate) => existsSync(candidate) && candidate.match(/\.tsx?$/),
      );
    })
    .filter((resolved): resolved is string => resolved !== undefined);
}

/** Every import circle among `files`, each as the list of its modules (one circle per strongly connected group). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  // Tarjan's strongly connected components; a component of two or more modules, or a module that
  // imports itself, is a circle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
}

describe("no import circle", () => {
  it("finds a circle, whether closed by a value or a type import (the finder itself)", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", []],
      ["e", ["e"]],
    ]);
    expect(importCycles(graph)).toEqual([["a", "b", "c"], ["e"]]);
    expect(
      importCycles(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toEqual([]);
    expect(localImports(join(SERVER_SRC, "app.ts")).length).toBeGreaterThan(10);
  });

  for (const tree of ["server/src", "common/src"]) {
    it(`finds none among the modules of ${tree}`, () => {
      const root = join(REPO, tree);
      const files = sourceFiles(root, /\.tsx?$/);
      const graph = new Map(files.map((file) => [file, localImports(file)]));
      const cycles = importCycles(graph).map((cycle) => cycle.map((file) => relative(REPO, file)).join(" <-> "));
      expect(cycles).toEqual([]);
    });
  }
});

/**
 * Homes: each concern in one place. The environment is read in server/src/platform/config.ts only (with zod);
 * nothing in server/src writes to the terminal but the log module (platform/log.ts: the log, and a
 * command-line tool's answer); the load tool uses the server from outside (HTTP and rooms) and imports
 * none of its modules; a room's file holds no SQL (its product's store does), and the platform and the
 * core define no room; the server defines its rooms under the names of `ROOMS` (common/src/rooms.ts) only.
 */
describe("every concern has its home", () => {
  const LOADTEST = join(REPO, "loadtest");
  const CONFIG = join(SERVER_SRC, "platform", "config.ts");
  /** Sets a setting Colyseus reads from the environment once, when it is loaded: before config.ts exists. */
  const COLYSEUS_RUNTIME = join(SERVER_SRC, "platform", "colyseus-runtime.ts");
  const LOG = join(SERVER_SRC, "platform", "log.ts");
  const source = (file: string) => readFileSync(file, "utf8");
  const matching = (files: string[], pattern: RegExp) => files.filter((file) => pattern.test(source(file))).map((f) => relative(REPO, f));

  const ENV_READ = /\bprocess\.env\b/;
  const CONSOLE = /\bconsole\.[a-z]+\s*\(/;
  const SQL = /\bsqlRows\b|\bem\.query\s*\(|from "typeorm"/;
  const ROUTER = /\bRouter\s*\(/;

  it("finds what each rule looks for (the patterns themselves)", () => {
    expect(ENV_READ.test("const url = process.env.DATABASE_URL;")).toBe(true);
    expect(ENV_READ.test("loadConfig(env: NodeJS.ProcessEnv)")).toBe(false);
    expect(CONSOLE.test(`console.error("failed:", error);`)).toBe(true);
    expect(CONSOLE.test("log.error('x', 'y')")).toBe(false);
    expect(SQL.test("await s.db.run((em) => sqlRows(em, `SELECT 1`))")).toBe(true);
    expect(SQL.test("await matchMaker.query({ processId })")).toBe(false);
    expect(ROOM_CLASS.test("export abstract class CrashRoom extends Room<{ state: CrashState }> {")).toBe(true);
    expect(ROUTER.test("const r = express.Router();")).toBe(true);
    // and the rules below read real trees
    expect(matching([CONFIG], ENV_READ)).toHaveLength(1);
    expect(matching(sourceFiles(SERVER_SRC), ROOM_CLASS).length).toBeGreaterThan(3);
    expect(matching(sourceFiles(SERVER_SRC), ROUTER).length).toBeGreaterThan(3);
    expect(matching(sourceFiles(join(SERVER_SRC, "platform", "db")), SQL).length).toBeGreaterThan(2);
  });

  it("reads the environment in server/src/platform/config.ts only (server, load tool, ormconfig.ts)", () => {
    const files = [
      ...sourceFiles(SERVER_SRC),
      ...sourceFiles(LOADTEST).filter((f) => !f.includes(`${sep}test${sep}`)),
      join(REPO, "ormconfig.ts"),
    ];
    expect(
      matching(
        files.filter((f) => f !== CONFIG && f !== COLYSEUS_RUNTIME),
        ENV_READ,
      ),
    ).toEqual([]);
  });

  it("writes to the terminal through the log module only", () => {
    expect(
      matching(
        sourceFiles(SERVER_SRC).filter((f) => f !== LOG),
        CONSOLE,
      ),
    ).toEqual([]);
  });

  it("keeps the load tool outside the server: it imports no module of server/src", () => {
    const server = join(REPO, "server") + sep;
    const inward = sourceFiles(LOADTEST).flatMap((file) =>
      localImports(file)
        .filter((to) => to.startsWith(server))
        .map((to) => `${relative(REPO, file)} -> ${relative(REPO, to)}`),
    );
    expect(inward).toEqual([]);
  });

  it("keeps SQL out of the rooms' files, and rooms out of the platform and the core", () => {
    const rooms = sourceFiles(SERVER_SRC).filter((file) => ROOM_CLASS.test(source(file)));
    expect(rooms.length).toBeGreaterThan(3);
    expect(matching(rooms, SQL)).toEqual([]);
    const lower = [...sourceFiles(join(SERVER_SRC, "platform")), ...sourceFiles(join(SERVER_SRC, "core"))];
    expect(lower.length).toBeGreaterThan(20);
    expect(matching(lower, ROOM_CLASS)).toEqual([]);
  });

  it("defines every room under a name of ROOMS, and every name of ROOMS as a room", async () => {
    const { ROOMS } = await import("@casino/common");
    const app = source(join(SERVER_SRC, "app.ts"));
    const block = app.slice(app.indexOf("rooms: {"), app.indexOf("express: (app)"));
    const keys = [...block.matchAll(/^\s*\[([^\]]+)\]:/gm)].map((m) => m[1]);
    expect(keys.length).toBeGreaterThan(3);
    expect(keys.filter((key) => !/^ROOMS\.\w+$/.test(key!))).toEqual([]);
    expect(keys.map((key) => key!.slice("ROOMS.".length)).sort()).toEqual(Object.keys(ROOMS).sort());
  });
});
