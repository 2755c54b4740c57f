import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { startTestApp, type TestApp } from "../../server/test/harness";

/** The built client in real headless Chromium against the real server. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp({ CLIENT_DIST: "client/dist" });
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe("a guest in the browser", () => {
  it("gets 1,000 coins, rolls the dice, and sees the server's balance", async () => {
    const page = await browser.newPage();
    await page.goto(t.baseUrl);
    const balance = page.getByTestId("balance");
    await expect.poll(() => balance.textContent(), { timeout: 15_000 }).toBe("1,000 coins");
    await page.getByRole("button", { name: "Roll" }).click();
    const outcome = page.getByTestId("outcome");
    await expect.poll(() => outcome.textContent(), { timeout: 10_000 }).toMatch(/^Rolled \d+\.\d\d: /);
    const [player] = await t.app.services.db.run((em) => em.query(`SELECT balance FROM players ORDER BY created_at DESC LIMIT 1`));
    await expect.poll(() => balance.textContent()).toBe(`${Number(player.balance).toLocaleString("en-US")} coins`);
    expect(await page.getByText("Play responsibly. Virtual currency only.").isVisible()).toBe(true);
    await page.screenshot({ path: "test-artifacts/guest-dice.png" });
    await page.close();
    await t.expectLedgerInvariant();
  });
});
