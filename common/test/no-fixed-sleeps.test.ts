import { readdirSync, readFileSync, statSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Tests wait on what they are waiting for (an attribute or event the app exposes, a poll of a
 * condition), never on the clock. This test reads every test folder and fails on a fixed sleep: an
 * awaited timer (`await new Promise((r) => setTimeout(r, ms))`, `await sleep(ms)` with a helper or
 * node:timers/promises, a page evaluating such a promise) or Playwright's `waitForTimeout`, that is not
 * inside a loop polling for a condition (a loop whose test asks something, or that breaks, returns or
 * throws). A timer that only guards a wait (it rejects, or races a condition) is not a sleep.
 */
const ROOT = new URL("../../", import.meta.url);
const TEST_FOLDERS = ["client/e2e", "client/test", "server/test", "common/test", "loadtest/test"];

/**
 * Files allowed to sleep, each with how many fixed sleeps it may hold and why: none today. Every test
 * waits on a condition, or runs on a clock it moves (fake timers, the server's ManualClock). A new
 * sleep anywhere fails; an entry added here needs a reason a reviewer accepts.
 */
const ALLOWED: Record<string, { sleeps: number; reason: string }> = {};

export interface Sleep {
  line: number;
  text: string;
}

const LOOPS = new Set([
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
]);

const unwrap = (node: ts.Expression): ts.Expression => {
  let e = node;
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression(e))
    e = e.expression;
  return e;
};

const calleeName = (call: ts.CallExpression): string | null => {
  const callee = unwrap(call.expression);
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return null;
};

/** The expression a function gives back: its expression body, or a body of one `return` (or one awaited expression). */
function givenBack(fn: ts.FunctionLikeDeclaration): ts.Expression | null {
  const body = fn.body;
  if (!body) return null;
  if (!ts.isBlock(body)) return unwrap(body);
  if (body.statements.length !== 1) return null;
  const [only] = body.statements;
  if (ts.isReturnStatement(only!) && only.expression) return unwrap(only.expression);
  if (ts.isExpressionStatement(only!)) {
    const e = unwrap(only.expression);
    return ts.isAwaitExpression(e) ? unwrap(e.expression) : e;
  }
  return null;
}

const isFunction = (node: ts.Node): node is ts.ArrowFunction | ts.FunctionExpression =>
  ts.isArrowFunction(node) || ts.isFunctionExpression(node);

/** `new Promise((resolve) => setTimeout(resolve, ms))` and its spellings: a promise that a timer alone resolves. */
function isTimerPromise(expr: ts.Expression): boolean {
  const e = unwrap(expr);
  if (!ts.isNewExpression(e) || !ts.isIdentifier(e.expression) || e.expression.text !== "Promise") return false;
  const executor = e.arguments?.[0];
  if (!executor || !isFunction(executor)) return false;
  const resolve = executor.parameters[0]?.name;
  if (!resolve || !ts.isIdentifier(resolve)) return false;
  const call = givenBack(executor);
  if (!call || !ts.isCallExpression(call) || calleeName(call) !== "setTimeout") return false;
  const fire = call.arguments[0] && unwrap(call.arguments[0]);
  if (!fire) return false;
  if (ts.isIdentifier(fire)) return fire.text === resolve.text;
  if (isFunction(fire)) {
    const inner = givenBack(fire);
    return !!inner && ts.isCallExpression(inner) && ts.isIdentifier(inner.expression) && inner.expression.text === resolve.text;
  }
  return false;
}

/** The names this file gives to sleeping: node:timers/promises' setTimeout, and helpers that only wait on a timer. */
function sleepNames(file: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      /^(node:)?timers\/promises$/.test(node.moduleSpecifier.text)
    ) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings))
        for (const el of bindings.elements) if ((el.propertyName ?? el.name).text === "setTimeout") names.add(el.name.text);
    }
    const named =
      ts.isFunctionDeclaration(node) && node.name
        ? { name: node.name.text, fn: node as ts.FunctionLikeDeclaration }
        : ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && isFunction(unwrap(node.initializer))
          ? { name: node.name.text, fn: unwrap(node.initializer) as ts.FunctionLikeDeclaration }
          : null;
    if (named) {
      const back = givenBack(named.fn);
      if (back && isTimerPromise(back)) names.add(named.name);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

/** An expression that is a fixed wait when awaited. */
function isSleep(expr: ts.Expression, names: Set<string>): boolean {
  const e = unwrap(expr);
  if (isTimerPromise(e)) return true;
  if (!ts.isCallExpression(e)) return false;
  const name = calleeName(e);
  if (name === "waitForTimeout") return true;
  if (name && ts.isIdentifier(unwrap(e.expression)) && names.has(name)) return true;
  // a page that sleeps: page.evaluate(() => new Promise((r) => setTimeout(r, ms)))
  if (name === "evaluate") {
    const fn = e.arguments[0] && unwrap(e.arguments[0]);
    const back = fn && isFunction(fn) ? givenBack(fn) : null;
    return !!back && isTimerPromise(back);
  }
  return false;
}

const CLOCK_READ = /\b(Date\.now|performance\.now)\(\)/;
const RELATIONS = new Set([
  ts.SyntaxKind.LessThanToken,
  ts.SyntaxKind.LessThanEqualsToken,
  ts.SyntaxKind.GreaterThanToken,
  ts.SyntaxKind.GreaterThanEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** The names a `for` loop declares in its initializer: its counters. */
function counters(loop: ts.IterationStatement): Set<string> {
  const names = new Set<string>();
  if (ts.isForStatement(loop) && loop.initializer && ts.isVariableDeclarationList(loop.initializer))
    for (const d of loop.initializer.declarations) if (ts.isIdentifier(d.name)) names.add(d.name.text);
  return names;
}

/**
 * Whether a loop polls for a condition: a part of its test (split at && and ||) asks something besides
 * its counter or the clock, or its body leaves it early (break, return, throw).
 */
function isPollingLoop(loop: ts.IterationStatement): boolean {
  const test = ts.isForStatement(loop) ? loop.condition : ts.isWhileStatement(loop) || ts.isDoStatement(loop) ? loop.expression : undefined;
  const counted = counters(loop);
  const asks = (term: ts.Expression): boolean => {
    const e = unwrap(term);
    if (
      ts.isBinaryExpression(e) &&
      (e.operatorToken.kind === ts.SyntaxKind.AmpersandAmpersandToken || e.operatorToken.kind === ts.SyntaxKind.BarBarToken)
    )
      return asks(e.left) || asks(e.right);
    if (ts.isBinaryExpression(e) && RELATIONS.has(e.operatorToken.kind)) {
      const side = (x: ts.Expression) => {
        const u = unwrap(x);
        return (ts.isIdentifier(u) && counted.has(u.text)) || CLOCK_READ.test(u.getText());
      };
      if (side(e.left) || side(e.right)) return false;
    }
    return !(e.kind === ts.SyntaxKind.TrueKeyword);
  };
  if (test && asks(test)) return true;
  let leaves = false;
  const inBody = (node: ts.Node, ownBreak: boolean): void => {
    if (ts.isFunctionLike(node)) return;
    if ((ownBreak && ts.isBreakStatement(node) && !node.label) || ts.isReturnStatement(node) || ts.isThrowStatement(node)) leaves = true;
    // a break inside a nested loop or switch leaves only that one
    const nested = LOOPS.has(node.kind) || ts.isSwitchStatement(node);
    ts.forEachChild(node, (child) => inBody(child, ownBreak && !nested));
  };
  inBody(loop.statement, true);
  return leaves;
}

/** Whether the node runs inside a polling loop of its own function. */
function inPollingLoop(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at && !ts.isSourceFile(at); at = at.parent) {
    if (ts.isFunctionLike(at)) return false;
    if (LOOPS.has(at.kind) && isPollingLoop(at as ts.IterationStatement)) return true;
  }
  return false;
}

/** The fixed sleeps of a TypeScript source. */
export function findFixedSleeps(source: string, fileName = "test.ts"): Sleep[] {
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const names = sleepNames(file);
  const found: Sleep[] = [];
  const seen = new Set<ts.Node>();
  const hit = (node: ts.Node) => {
    if (seen.has(node) || inPollingLoop(node)) return;
    seen.add(node);
    found.push({ line: file.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.getText().replace(/\s+/g, " ") });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isAwaitExpression(node) && isSleep(node.expression, names)) hit(unwrap(node.expression));
    // waitForTimeout is a sleep however it is used (awaited, in Promise.all, returned)
    else if (ts.isCallExpression(node) && calleeName(node) === "waitForTimeout") hit(node);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(new URL(dir, ROOT))) {
    const path = `${dir}/${name}`;
    if (name === "node_modules") continue;
    if (statSync(new URL(path, ROOT)).isDirectory()) out.push(...testFiles(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

describe("fixed sleeps in tests", () => {
  it("the finder finds a planted sleep in each of its spellings", () => {
    const planted = [
      `await page.waitForTimeout(600);`,
      `await new Promise((r) => setTimeout(r, 100));`,
      `await new Promise<void>((resolve) => { setTimeout(() => resolve(), 50); });`,
      `import { setTimeout as sleep } from "node:timers/promises";\nawait sleep(100);`,
      `const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));\nawait sleep(5);`,
      `async function pause(ms: number) { return new Promise((r) => setTimeout(r, ms)); }\nawait pause(5);`,
      `await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));`,
      `await Promise.all([page.waitForTimeout(100), other()]);`,
      // a loop that only counts is a longer sleep, not a poll
      `for (let i = 0; i < 3; i++) await new Promise((r) => setTimeout(r, 10));`,
      `while (Date.now() < end) await new Promise((r) => setTimeout(r, 10));`,
      `while (true) await new Promise((r) => setTimeout(r, 10));`,
      // a loop around a function that sleeps: the sleep is the function's, outside any loop of its own
      `for (;;) { if (await done()) break; await step(async () => { await new Promise((r) => setTimeout(r, 10)); }); }`,
    ];
    for (const source of planted) expect(findFixedSleeps(source), source).toHaveLength(1);
    expect(findFixedSleeps(`await page.waitForTimeout(600);`)).toEqual([{ line: 1, text: "page.waitForTimeout(600)" }]);
  });

  it("the finder leaves polls, guards and fake clocks alone", () => {
    const fine = [
      `while (!done()) await new Promise((r) => setTimeout(r, 10));`,
      `for (;;) { if (await ready()) break; await new Promise((r) => setTimeout(r, 10)); }`,
      `let gone = false;\nfor (let i = 0; i < 200 && !gone; i++) { gone = await check(); if (!gone) await new Promise((r) => setTimeout(r, 50)); }`,
      `while (monitoring) { seen += await count(); await new Promise((r) => setTimeout(r, 5)); }`,
      `for (let i = 0; i < 5 && !(await archived()); i++) { if (i > 0) await new Promise((r) => setTimeout(r, 50)); await sweep(); }`,
      `const end = Date.now() + 1000;\nwhile (!cond()) { if (Date.now() > end) throw new Error("late"); await new Promise((r) => setTimeout(r, 10)); }`,
      `await new Promise((_, reject) => setTimeout(() => reject(new Error("no answer")), 5000));`,
      `await Promise.race([answer, new Promise((r) => setTimeout(r, 3000))]);`,
      `await vi.advanceTimersByTimeAsync(100);`,
      `await clock.advance(1000);`,
      `setTimeout(() => ws.close(), 10);`,
      `await page.getByTestId("x").waitFor({ timeout: 10_000 });`,
      `await expect.poll(() => read(), { timeout: 5_000 }).toBe(1);`,
    ];
    for (const source of fine) expect(findFixedSleeps(source), source).toEqual([]);
  });

  it("no test folder sleeps for a fixed time, except the files listed with their reason", () => {
    const found: Record<string, Sleep[]> = {};
    for (const dir of TEST_FOLDERS)
      for (const path of testFiles(dir)) {
        const sleeps = findFixedSleeps(readFileSync(new URL(path, ROOT), "utf8"), path);
        if (sleeps.length) found[path] = sleeps;
      }
    const over = Object.entries(found)
      .filter(([path, sleeps]) => sleeps.length > (ALLOWED[path]?.sleeps ?? 0))
      .map(([path, sleeps]) => `${path}: ${sleeps.map((s) => `line ${s.line}: ${s.text}`).join("; ")}`);
    expect(over, "fixed sleeps: wait on the app's state (an attribute, an event, a poll of a condition) instead").toEqual([]);
    // an entry whose file sleeps no more is removed
    expect(Object.keys(ALLOWED).filter((path) => !found[path])).toEqual([]);
  });
});
