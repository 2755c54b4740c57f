import { describe, expect, it } from "vitest";
import type { FrameLocator, Locator, Page } from "playwright-core";
import {
  ARENA_HEIGHT,
  ARENA_WIDTH,
  DOTS_RULES_VERSION,
  DOT_COUNT,
  DOT_RADIUS,
  dotLayout,
  replayConnectDots,
  replayDotBattle,
  type DotBattleInput,
  type DotsInput,
  type DotsRules,
} from "@casino/common/skill/index";
import { DOTS_REWARD, SKILL_ROUNDS_PER_DAY } from "@casino/common/constants";
import { formatRecordTime } from "@casino/common/format";
import { history, openAsGuest, openGame, serverBalance, shownBalance } from "./games-helpers";
import { acceptTerms } from "./fake-discord-host";
import { ARTIFACTS } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * The two skill games played through their canvases in real Chromium against the real server: the
 * seed comes from the page's own start request, the test computes where the dots are with the common
 * simulation and moves the real mouse (or holds real keys); what the table then shows is checked
 * against the server's record of the round (its replay, the ledger, the boards).
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true });

const sql = (text: string, params: unknown[] = []) => t.app.services.db.run((em) => em.query(text, params)) as Promise<any[]>;
/** A new guest's first visit (openAsGuest dismisses the guest notice), then the game's table. */
async function guestOn(gameId: string) {
  const guest = await openAsGuest(browser, t.baseUrl);
  await openGame(guest.page, gameId);
  return guest;
}

const roundRow = async (roundId: string) =>
  (await sql(`SELECT status, kills, completion_ms, reward, inputs, seed FROM skill_rounds WHERE id = $1`, [roundId]))[0];

/** The page (or the app inside the Discord frame) and the page whose mouse drives it. */
interface Surface {
  page: Page;
  app: Page | FrameLocator;
}

/** Clicks Start and answers the round the server started (from the page's own request). */
async function startRound({ page, app }: Surface): Promise<{ roundId: string; seed: string }> {
  const started = page.waitForResponse((r) => r.url().endsWith("/api/skill-rounds") && r.request().method() === "POST", {
    timeout: 20_000,
  });
  await app.getByTestId("skill-start").click();
  const res = await started;
  expect(res.status()).toBe(201);
  return (await res.json()) as { roundId: string; seed: string };
}

const dataOf = async (el: Locator, name: string) => Number(await el.getAttribute(`data-${name}`));

/** Draws through the dots with the real mouse: press on dot 1, then move to each next dot once the canvas shows the last one reached. */
async function drawDots(surface: Surface, seed: string): Promise<void> {
  const canvas = surface.app.getByTestId("dots-canvas");
  const box = (await canvas.boundingBox())!;
  const at = (d: { x: number; y: number }) =>
    [box.x + ((d.x + 0.5) / ARENA_WIDTH) * box.width, box.y + ((d.y + 0.5) / ARENA_HEIGHT) * box.height] as const;
  const dots = dotLayout(seed);
  await surface.page.mouse.move(...at(dots[0]!));
  await surface.page.mouse.down();
  for (const [i, d] of dots.entries()) {
    await surface.page.mouse.move(...at(d), { steps: 6 });
    await expect.poll(() => dataOf(canvas, "connected"), { timeout: 20_000, interval: 20 }).toBeGreaterThan(i);
  }
  await surface.page.mouse.up();
}

describe("Connect the Dots", () => {
  it("a guest draws the puzzle on the canvas; the balance rises by the reward the server recorded, and the time is the server's replay", async () => {
    const { page, context, session } = await guestOn("dots");
    const s = await session();
    const daily = page.getByTestId("skill-daily");
    await daily.waitFor();
    expect(await dataOf(daily, "left")).toBe(SKILL_ROUNDS_PER_DAY);
    await expect.poll(() => shownBalance(page)).toBe(await serverBalance(t.baseUrl, s));
    const before = await shownBalance(page);

    const { roundId, seed } = await startRound({ page, app: page });
    await expect.poll(() => dataOf(daily, "left")).toBe(SKILL_ROUNDS_PER_DAY - 1);
    await drawDots({ page, app: page }, seed);

    const result = page.getByTestId("skill-result");
    await result.waitFor({ timeout: 20_000 });
    expect(await result.getAttribute("data-kind")).toBe("rewarded");
    const row = await roundRow(roundId);
    expect(row.status).toBe("rewarded");
    // The server's replay of the browser's log, and the same replay in this process, give the shown time.
    const replay = replayConnectDots(row.seed, row.inputs as DotsInput[]);
    expect(replay.ok && replay.result.completionMs).toBe(row.completion_ms);
    expect(await dataOf(result, "completion-ms")).toBe(row.completion_ms);
    expect(await page.getByTestId("stat-time").textContent()).toBe(formatRecordTime(row.completion_ms));

    const paid = (await history(t.baseUrl, s)).find((h) => h.gameType === "dots")!;
    expect(paid).toMatchObject({ betAmount: 0, payout: DOTS_REWARD, result: "win" });
    expect(await dataOf(result, "reward")).toBe(paid.payout);
    expect(await serverBalance(t.baseUrl, s)).toBe(before + paid.payout);
    await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(before + paid.payout);
    expect(await result.textContent()).toContain(`+${paid.payout} coins`);

    // Guests are paid but never ranked (spec: leaderboard ranking is for signed-in players).
    expect(await page.locator(`[data-testid="skill-board-row"][data-player="${s.playerId}"]`).count()).toBe(0);

    await page.screenshot({ path: `${ARTIFACTS}/skill-dots-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${ARTIFACTS}/skill-dots-390.png`, fullPage: true });
    await context.close();
    await t.expectLedgerInvariant();
  });

  it("a guest on a touch screen draws the puzzle with a finger and is paid what the server's replay gives", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    const page = await context.newPage();
    const guest = page.waitForResponse((r) => r.url().endsWith("/api/guest") && r.request().method() === "POST", { timeout: 20_000 });
    await page.goto(t.baseUrl);
    const body = (await (await guest).json()) as { session_token: string; player: { id: string } };
    const s = { playerId: body.player.id, token: body.session_token };
    await page.getByRole("button", { name: "Got it, Continue as Guest" }).click({ timeout: 20_000 });
    await openGame(page, "dots");
    const before = await serverBalance(t.baseUrl, s);
    await expect.poll(() => shownBalance(page)).toBe(before);

    const { roundId, seed } = await startRound({ page, app: page });
    const canvas = page.getByTestId("dots-canvas");
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    const at = (d: { x: number; y: number }) => ({
      x: box.x + ((d.x + 0.5) / ARENA_WIDTH) * box.width,
      y: box.y + ((d.y + 0.5) / ARENA_HEIGHT) * box.height,
    });
    // Real touch events through the browser's input pipeline (the page sees pointerType "touch").
    const touch = await context.newCDPSession(page);
    const dots = dotLayout(seed);
    await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [at(dots[0]!)] });
    for (const [i, d] of dots.entries()) {
      await touch.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [at(d)] });
      await expect.poll(() => dataOf(canvas, "connected"), { timeout: 20_000, interval: 20 }).toBeGreaterThan(i);
    }
    await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });

    const result = page.getByTestId("skill-result");
    await result.waitFor({ timeout: 20_000 });
    const row = await roundRow(roundId);
    expect(row.status).toBe("rewarded");
    expect(await dataOf(result, "completion-ms")).toBe(row.completion_ms);
    expect(Number(row.reward)).toBe(DOTS_REWARD);
    await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(before + DOTS_REWARD);
    expect(await serverBalance(t.baseUrl, s)).toBe(before + DOTS_REWARD);
    await context.close();
  });

  it("a Discord player's time is listed on the game's Speed board once the round is paid", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(host.url(`${t.baseUrl}/`, { players: ["100000000000000071:Dora"] }));
    const app = page.frameLocator("iframe").first();
    await acceptTerms(app);
    await app.getByTestId("game-tile-dots").getByRole("button", { name: "Play Now" }).click();
    await app.getByTestId("table-dots").waitFor({ timeout: 20_000 });
    await app.getByTestId("skill-board").getByText("No speed records yet. Play Connect the Dots to set a record!").waitFor();

    const { roundId, seed } = await startRound({ page, app });
    await drawDots({ page, app }, seed);
    await app.getByTestId("skill-result").waitFor({ timeout: 20_000 });
    const row = await roundRow(roundId);
    expect(row.status).toBe("rewarded");
    const [player] = await sql(`SELECT id FROM players WHERE discord_id = $1`, ["100000000000000071"]);

    const mine = app.locator(`[data-testid="skill-board-row"][data-player="${player.id}"]`);
    await mine.waitFor({ timeout: 10_000 });
    expect(await mine.getByTestId("skill-board-value").textContent()).toBe(formatRecordTime(row.completion_ms));
    const viewer = await t.guest();
    const board = await t.request("GET", "/api/game/dots/leaderboard?limit=25", { token: viewer.token });
    expect(board.body.entries.map((e: any) => [e.playerId, e.completionTimeMs])).toEqual([[player.id, row.completion_ms]]);
    await page.close();
  }, 180_000);
});

describe("Connect the Dots as a quick swipe", () => {
  it("a line beside dot 1 is told as a miss; one quick swipe with a mouse move or two between dots connects them all, and the server's replay pays it", async () => {
    const { page, context, session } = await guestOn("dots");
    const s = await session();
    await expect.poll(() => shownBalance(page)).toBe(await serverBalance(t.baseUrl, s));
    const before = await shownBalance(page);
    const { roundId, seed } = await startRound({ page, app: page });
    const canvas = page.getByTestId("dots-canvas");
    const box = (await canvas.boundingBox())!;
    const at = (x: number, y: number) =>
      [box.x + ((x + 0.5) / ARENA_WIDTH) * box.width, box.y + ((y + 0.5) / ARENA_HEIGHT) * box.height] as const;
    const dots = dotLayout(seed);
    const miss = page.getByTestId("dots-miss");
    expect(await miss.textContent()).toBe("");

    // A stroke that passes 22 px beside dot 1 (its radius is 18): nothing connects, and the board says why.
    const first = dots[0]!;
    await page.mouse.move(...at(first.x - 40, first.y + DOT_RADIUS + 4));
    await page.mouse.down();
    await page.mouse.move(...at(first.x + 40, first.y + DOT_RADIUS + 4), { steps: 2 });
    await page.mouse.up();
    await expect.poll(() => miss.textContent(), { timeout: 10_000 }).toBe("Missed: the line must pass through dot 1 next");
    expect(await miss.getAttribute("aria-live")).toBe("polite");
    expect(await dataOf(canvas, "connected")).toBe(0);

    // The swipe: press 30 px short of dot 1, then for each dot one move to 30 px beyond it on the line
    // from the last one (the move events land outside every dot) and one move to 30 px short of the next;
    // no waiting for the pen, which traces the line afterwards.
    const points: [number, number][] = [];
    let from = { x: ARENA_WIDTH / 2, y: ARENA_HEIGHT / 2 };
    for (const d of dots) {
      const len = Math.hypot(d.x - from.x, d.y - from.y);
      const [ux, uy] = [(d.x - from.x) / len, (d.y - from.y) / len];
      points.push([d.x - ux * 30, d.y - uy * 30], [d.x + ux * 30, d.y + uy * 30]);
      from = d;
    }
    for (const [x, y] of points) for (const d of dots) expect((x - d.x) ** 2 + (y - d.y) ** 2).toBeGreaterThan(DOT_RADIUS ** 2);
    await page.mouse.move(...at(...points[0]!));
    await page.mouse.down();
    for (const [i, p] of points.slice(1).entries()) await page.mouse.move(...at(...p), { steps: i % 2 === 0 ? 1 : 2 });
    await page.mouse.up();

    const result = page.getByTestId("skill-result");
    await result.waitFor({ timeout: 30_000 });
    expect(await result.getAttribute("data-kind")).toBe("rewarded");
    expect(await dataOf(canvas, "connected")).toBe(DOT_COUNT);
    expect(await miss.textContent()).toBe("");
    const row = (
      await sql(`SELECT status, completion_ms, reward, rules_version, inputs, seed FROM skill_rounds WHERE id = $1`, [roundId])
    )[0];
    expect(row).toMatchObject({ status: "rewarded", rules_version: DOTS_RULES_VERSION });
    // The server's replay of the browser's log, and the same replay here, connect every dot in the shown time.
    const replay = replayConnectDots(row.seed, row.inputs as DotsInput[], row.rules_version as DotsRules);
    expect(replay.ok && replay.result).toMatchObject({ completed: true, connected: DOT_COUNT, completionMs: row.completion_ms });
    expect(await dataOf(result, "completion-ms")).toBe(row.completion_ms);
    expect(Number(row.reward)).toBe(DOTS_REWARD);
    expect(await dataOf(result, "reward")).toBe(DOTS_REWARD);
    expect(await serverBalance(t.baseUrl, s)).toBe(before + DOTS_REWARD);
    await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(before + DOTS_REWARD);
    await context.close();
    await t.expectLedgerInvariant();
  }, 120_000);
});

describe("Dot Battle", () => {
  it("a guest plays a round with the real keyboard; the kills shown are the server replay's and the balance rises by them", async () => {
    const { page, context, session } = await guestOn("dot-battle");
    const s = await session();
    await expect.poll(() => shownBalance(page)).toBe(await serverBalance(t.baseUrl, s));
    const before = await shownBalance(page);

    const { roundId } = await startRound({ page, app: page });
    const canvas = page.getByTestId("battle-canvas");
    // Sweep left, then right, then sit still until the enemies end the round.
    await page.keyboard.down("ArrowLeft");
    await expect.poll(() => dataOf(canvas, "tick"), { timeout: 20_000 }).toBeGreaterThan(60);
    await page.keyboard.up("ArrowLeft");
    await page.keyboard.down("ArrowRight");
    await expect.poll(() => dataOf(canvas, "tick"), { timeout: 20_000 }).toBeGreaterThan(150);
    await page.screenshot({ path: `${ARTIFACTS}/skill-dot-battle-playing-1280.png` });
    await page.keyboard.up("ArrowRight");
    await expect.poll(() => canvas.getAttribute("data-over"), { timeout: 90_000, interval: 250 }).toBe("true");

    const result = page.getByTestId("skill-result");
    await result.waitFor({ timeout: 20_000 });
    const row = await roundRow(roundId);
    expect(row.status).toBe("rewarded");
    const replay = replayDotBattle(row.seed, row.inputs as DotBattleInput[]);
    expect(replay.ok && replay.result.kills).toBe(row.kills);
    // The browser's own simulation, the table's answer and the server's replay agree.
    expect(await dataOf(canvas, "kills")).toBe(row.kills);
    expect(await dataOf(result, "kills")).toBe(row.kills);
    expect(Number(await page.getByTestId("stat-kills").textContent())).toBe(row.kills);
    expect(Number(row.reward)).toBe(row.kills);

    const paid = (await history(t.baseUrl, s)).find((h) => h.gameType === "dot-battle")!;
    expect(paid.payout).toBe(row.kills);
    expect(await serverBalance(t.baseUrl, s)).toBe(before + row.kills);
    await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(before + row.kills);

    await page.screenshot({ path: `${ARTIFACTS}/skill-dot-battle-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${ARTIFACTS}/skill-dot-battle-390.png`, fullPage: true });
    await context.close();
    await t.expectLedgerInvariant();
  }, 150_000);
});

describe("tampering", () => {
  it("a forged log sent from the page is refused with the server's message and moves no coins", async () => {
    const { page, context, session } = await guestOn("dots");
    const s = await session();
    const before = await serverBalance(t.baseUrl, s);
    await page.getByTestId("arena-overlay").waitFor();
    await page.screenshot({ path: `${ARTIFACTS}/skill-dots-idle-1280.png` });

    // A round started by the page, then a submission made up in the page: no input at all, 50 kills.
    const forged = await page.evaluate(async () => {
      const token = localStorage.getItem("casino-session-token");
      const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
      const id = () => `forged-${crypto.getRandomValues(new Uint32Array(2)).join("")}`;
      const start = await fetch("/api/skill-rounds", {
        method: "POST",
        headers,
        body: JSON.stringify({ requestId: id(), game: "dot-battle" }),
      });
      const round = await start.json();
      const res = await fetch(`/api/skill-rounds/${round.roundId}/submit`, {
        method: "POST",
        headers,
        body: JSON.stringify({ requestId: id(), game: "dot-battle", inputs: [], claimedKills: 50 }),
      });
      return { status: res.status, body: await res.json(), roundId: round.roundId as string };
    });
    expect(forged.status).toBe(422);
    expect(forged.body).toMatchObject({ code: "log_refused", reason: "claim_above_replay" });
    expect(forged.body.error).toMatch(/^Score refused: claimed 50 kills but the replay gives \d+$/);
    expect((await roundRow(forged.roundId)).status).toBe("refused");

    // The table's own round, its claim rewritten on the way out: the table shows the server's refusal.
    await page.route("**/api/skill-rounds/*/submit", async (route) => {
      const body = JSON.parse(route.request().postData() ?? "{}");
      await route.continue({ postData: JSON.stringify({ ...body, claimedCompletionMs: 100 }) });
    });
    const { roundId, seed } = await startRound({ page, app: page });
    await drawDots({ page, app: page }, seed);
    const result = page.getByTestId("skill-result");
    await result.waitFor({ timeout: 20_000 });
    expect(await result.getAttribute("data-kind")).toBe("refused");
    const message = await page.getByTestId("skill-result-message").textContent();
    expect(message).toMatch(/^Score refused: claimed 100 ms but the replay takes \d+ ms$/);
    expect((await roundRow(roundId)).status).toBe("refused");

    expect(await serverBalance(t.baseUrl, s)).toBe(before);
    expect(await shownBalance(page)).toBe(before);
    expect((await history(t.baseUrl, s)).filter((h) => h.gameType === "dots" || h.gameType === "dot-battle")).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/skill-dots-refused-1280.png`, fullPage: true });
    await context.close();
    await t.expectLedgerInvariant();
  });
});
