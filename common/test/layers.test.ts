import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The layers of common/src, checked on the source. From the ground up: the fairness primitives
 * (`fairness/`: the float stream, the client seed's rule, commitments, the rounding rules) import no game,
 * verifier or room protocol; the games (`games/`) import no verifier; the verifiers (`verifiers/`) stand
 * above the games they replay, and only the package's index imports them. (Circles are checked by
 * server/test/unit/architecture.test.ts for the whole tree.)
 */
const SRC = join(import.meta.dirname, "..", "src");
const FAIRNESS = join(SRC, "fairness") + sep;
const GAMES = join(SRC, "games") + sep;
const VERIFIERS = join(SRC, "verifiers") + sep;
const INDEX = join(SRC, "index.ts");
/** The room protocols and REST shapes: what the server and the client say to each other. */
const PROTOCOLS = ["protocol", "rooms", "table", "table-schemas", "table-join", "holdem-table", "together", "together-schemas", "api"].map(
  (name) => join(SRC, `${name}.ts`),
);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.ts$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The files of common/src a file imports (type imports and re-exports included). */
function localImports(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, "utf8"), true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => {
      const base = join(dirname(file), name);
      return name.endsWith(".ts") ? base : ([`${base}.ts`, join(base, "index.ts")].find((f) => FILES.includes(f)) ?? base);
    });
}

const FILES = sourceFiles(SRC);
const show = (from: string, to: string) => `${relative(SRC, from)} -> ${relative(SRC, to)}`;
const importsOf = (files: string[], into: (to: string) => boolean) =>
  files.flatMap((from) =>
    localImports(from)
      .filter(into)
      .map((to) => show(from, to)),
  );

describe("the layers of common/src", () => {
  it("reads real imports (the reader itself)", () => {
    const verify = join(VERIFIERS, "verify.ts");
    expect(localImports(verify)).toContain(join(GAMES, "registry.ts"));
    expect(localImports(INDEX)).toContain(verify);
    expect(FILES.filter((f) => f.startsWith(FAIRNESS)).length).toBeGreaterThan(3);
    expect(PROTOCOLS.every((f) => FILES.includes(f))).toBe(true);
  });

  it("the fairness primitives import no game, verifier or room protocol", () => {
    const fairness = FILES.filter((f) => f.startsWith(FAIRNESS));
    expect(importsOf(fairness, (to) => to.startsWith(GAMES) || to.startsWith(VERIFIERS) || PROTOCOLS.includes(to))).toEqual([]);
  });

  it("the games import no verifier", () => {
    const games = FILES.filter((f) => f.startsWith(GAMES));
    expect(importsOf(games, (to) => to.startsWith(VERIFIERS))).toEqual([]);
  });

  it("only the index imports the verifiers from outside them", () => {
    const outside = FILES.filter((f) => !f.startsWith(VERIFIERS) && f !== INDEX);
    expect(importsOf(outside, (to) => to.startsWith(VERIFIERS))).toEqual([]);
  });
});
