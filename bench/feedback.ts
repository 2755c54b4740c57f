import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium, type Browser, type Page } from "playwright-core";
import { freePorts, startServer } from "./lib/cluster";
import { freshDatabase, leaseRedis } from "./lib/database";
import { machine } from "./lib/proc";

/**
 * `npm run bench:feedback`: how long a player waits from the click that ends a round to its result on
 * the table, per game, in Turbo and with the result animations, in headless Chromium against a local
 * server (PostgreSQL and Redis, a fresh database) serving the production client (`npm run build` first).
 *
 * A guest opens each game, lays its bet once (chips, tiles, a target), then plays `--rounds` rounds:
 * the time is taken in the page, from the click (the bet, or in a round of several steps the action
 * that ends it) to the moment the table's result (`round-result`) is in the document, which is also
 * the moment the payout reaches the header's balance. Turbo is this device's switch (stored before the
 * page loads). The median (p50) and the worst round are printed, one table a mode. Not a test: the
 * figures depend on the machine and its load.
 */
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    games: { type: "string" },
    modes: { type: "string", default: "turbo,animated" },
    redis: { type: "string", default: process.env.REDIS_URL ?? "redis://127.0.0.1:6379" },
  },
});
const ROUNDS = Number(values.rounds);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
type Mode = "turbo" | "animated";
const MODES = values.modes!.split(",") as Mode[];

/** A game: what is laid once (`setup`), the stake, and the actions of a round in order of preference. */
interface Driver {
  id: string;
  amount: number;
  setup?(page: Page): Promise<void>;
  /** the controls that move an open round on, the first one enabled is clicked */
  actions?: string[];
  /** the table clears its layout after a round: `setup` again before each */
  setupEachRound?: boolean;
}

const DRIVERS: Driver[] = [
  { id: "blackjack", amount: 10, actions: ["bj-insurance-decline", "bj-stand"] },
  { id: "poker", amount: 10, actions: ["poker-raise"] },
  {
    id: "baccarat",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("baccarat-banker").click();
    },
  },
  {
    id: "three-card-poker",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("tcp-ante").click();
    },
    actions: ["tcp-play"],
  },
  { id: "video-poker", amount: 10, actions: ["vp-draw"] },
  {
    id: "crash",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("crash-cashout").fill("1.50");
    },
  },
  {
    id: "coin-flip",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("coin-tails").click();
    },
  },
  { id: "hi-lo", amount: 100, actions: ["hilo-cashout", "hilo-higher", "hilo-lower", "hilo-skip"] },
  {
    id: "dice",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("dice-target").fill("50");
    },
  },
  {
    id: "limbo",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("limbo-target").fill("2");
    },
  },
  {
    id: "craps",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("craps-field").click();
    },
    setupEachRound: true,
    actions: ["craps-roll"],
  },
  {
    id: "sic-bo",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("sicbo-small").click();
    },
  },
  { id: "slots", amount: 10 },
  {
    id: "roulette",
    amount: 10,
    setup: async (p) => {
      await p.getByTestId("roulette-red").click();
    },
  },
  {
    id: "keno",
    amount: 10,
    setup: async (p) => {
      for (const tile of [3, 8, 13, 21, 34]) await p.getByTestId(`keno-tile-${tile}`).click();
    },
  },
  { id: "mines", amount: 10, actions: ["mines-tile-12", "mines-cashout"] },
];

type Step = { kind: "result" | "open" | "refused" | "timeout"; ms: number; text?: string };

/**
 * Clicks a control and waits, in the page, for what follows: the table's result appearing (`result`,
 * with the time since the click), or the round still open once the answer came (`open`). Plain
 * JavaScript sent as text, so nothing the bench's compiler adds to functions reaches the page.
 */
const CLICK_AND_WAIT = `(id) => new Promise((resolve) => {
  const start = performance.now();
  let sawPending = false;
  let timer = 0;
  const finish = (kind, text) => {
    watch.disconnect();
    clearTimeout(timer);
    resolve({ kind, ms: performance.now() - start, text });
  };
  const check = () => {
    const result = document.querySelector('[data-testid="round-result"]');
    if (result && !result.dataset.benchSeen) {
      result.dataset.benchSeen = "1";
      return finish("result");
    }
    const panel = document.querySelector('[data-testid="bet-panel"]');
    if (panel && panel.getAttribute("data-pending") === "true") sawPending = true;
    else if (sawPending) {
      const refusal = document.querySelector('[data-testid="bet-error"]');
      if (refusal && refusal.textContent) return finish("refused", refusal.textContent);
      if (panel && panel.getAttribute("data-locked") === "true") return finish("open");
    }
  };
  const watch = new MutationObserver(check);
  watch.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  timer = setTimeout(() => finish("timeout"), 20000);
  document.querySelectorAll('[data-testid="round-result"]').forEach((seen) => { seen.dataset.benchSeen = "1"; });
  document.querySelector('[data-testid="' + id + '"]').click();
})`;

const clickAndWait = (page: Page, id: string): Promise<Step> => page.evaluate(`(${CLICK_AND_WAIT})(${JSON.stringify(id)})`);

const firstEnabled = async (page: Page, ids: string[]) => {
  for (const id of ids) {
    const el = page.getByTestId(id);
    if ((await el.count()) > 0 && (await el.isEnabled())) return id;
  }
  return null;
};

/** One round: the bet, then actions until the result shows; the time from the last click to the result. */
async function playRound(page: Page, driver: Driver): Promise<number> {
  await page.locator('[data-testid="bet-button"]:enabled').waitFor({ timeout: 20_000 });
  let step = await clickAndWait(page, "bet-button");
  for (let i = 0; step.kind === "open" && i < 30; i++) {
    const next = await firstEnabled(page, driver.actions ?? []);
    if (!next) throw new Error(`${driver.id}: the round is open and no action is enabled`);
    step = await clickAndWait(page, next);
  }
  if (step.kind !== "result") throw new Error(`${driver.id}: ${step.kind}${step.text ? ` (${step.text})` : ""}`);
  return step.ms;
}

async function measureGame(browser: Browser, baseUrl: string, driver: Driver, mode: Mode): Promise<number[]> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(
    `localStorage.setItem("guest-notice-dismissed", "true"); localStorage.setItem("turbo", "${mode === "turbo" ? "on" : "off"}");`,
  );
  const page = await context.newPage();
  try {
    await page.goto(baseUrl);
    const notice = page.getByRole("button", { name: "Got it, Continue as Guest" });
    await page.getByTestId(`game-tile-${driver.id}`).waitFor({ timeout: 30_000 });
    if (await notice.isVisible().catch(() => false)) await notice.click();
    await page.getByTestId(`game-tile-${driver.id}`).getByRole("button", { name: "Play Now" }).click();
    await page.getByTestId(`table-${driver.id}`).waitFor({ timeout: 30_000 });
    await driver.setup?.(page);
    // the driver's stake, or the table's minimum for this bet when that is higher
    const minimum = Number(
      (await page
        .getByTestId("bet-min")
        .getAttribute("data-value", { timeout: 2_000 })
        .catch(() => null)) ?? 0,
    );
    await page.getByTestId("bet-amount").fill(String(Math.max(driver.amount, minimum)));
    const times: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      if (i > 0 && driver.setupEachRound) await driver.setup?.(page);
      times.push(await playRound(page, driver));
    }
    return times;
  } finally {
    await context.close();
  }
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
const ms = (v: number) => `${Math.round(v).toLocaleString("en-US")} ms`;

async function main() {
  if (!existsSync(join(ROOT, "client/dist/index.html"))) throw new Error("client/dist is missing: run `npm run build` first");
  const games = values.games ? DRIVERS.filter((d) => values.games!.split(",").includes(d.id)) : DRIVERS;
  const db = await freshDatabase("casino_feedback");
  const redis = await leaseRedis(values.redis!);
  const dataDir = mkdtempSync(join(tmpdir(), "casino-feedback-"));
  const port = await freePorts(1);
  const server = await startServer(port, {
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    DATA_DIR: dataDir,
    CLIENT_DIST: "client/dist",
  });
  // the machine's Chromium, as the browser tests run it (client/e2e/support.ts)
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--autoplay-policy=no-user-gesture-required"],
  });
  console.log(`feedback bench: ${machine()}; ${ROUNDS} rounds a game and mode; click to result shown`);
  const results = new Map<string, Partial<Record<Mode, number[]>>>();
  try {
    for (const driver of games) {
      const row: Partial<Record<Mode, number[]>> = {};
      for (const mode of MODES) {
        try {
          row[mode] = await measureGame(browser, server.url, driver, mode);
        } catch (error) {
          console.error(`${driver.id} (${mode}): ${(error as Error).message.split("\n")[0]}`);
        }
      }
      results.set(driver.id, row);
    }
  } finally {
    await browser.close();
    await server.stop();
    await db.drop();
    await redis.release();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const goal: Record<Mode, number> = { turbo: 250, animated: 1200 };
  for (const mode of MODES) {
    console.log(`\n${mode} (goal: p50 <= ${ms(goal[mode])})\n`);
    console.log("| game | p50 | worst | rounds | goal met |");
    console.log("|---|---:|---:|---:|---|");
    for (const [game, row] of results) {
      const times = row[mode];
      if (!times?.length) {
        console.log(`| ${game} | failed | | | |`);
        continue;
      }
      const p50 = quantile(times, 0.5);
      console.log(`| ${game} | ${ms(p50)} | ${ms(Math.max(...times))} | ${times.length} | ${p50 <= goal[mode] ? "yes" : "no"} |`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
