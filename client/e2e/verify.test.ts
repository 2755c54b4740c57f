import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { api, openAsGuest, openGame, press, setAmount, settled, shownResult } from "./games-helpers";
import { ARTIFACTS } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * The player's side of provable fairness in real Chromium against the real server: the browser's own
 * client seed, the seeds panel and its rotation, the Verify link of a history row, and the verifier page
 * re-deriving the round in the browser to what the server recorded.
 */
const { server: t, browser } = setupBrowserApp();

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? "").trim();

interface Seeds {
  active: { serverSeedHash: string; clientSeed: string; nonce: number; nextServerSeedHash: string };
  revealed: { serverSeed: string; serverSeedHash: string }[];
}

describe("verifying a round from the history", () => {
  it("a guest's spin and dice bet: browser client seed, rotation reveals the committed seed, each Verify link re-derives what the server recorded", async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      // openAsGuest has dismissed the first-visit guest notice.
      const s = await session();
      const seedsOf = () => api<Seeds>(t.baseUrl, `/api/player/${s.playerId}/seeds`, s.token);

      // The browser made the default client seed (when its room connection loads, once the page is
      // idle), and the server took it at the first join.
      const storedSeed = () => page.evaluate(() => localStorage.getItem("client-seed"));
      await expect.poll(storedSeed, { timeout: 10_000 }).toMatch(/^[0-9a-f]{32}$/);
      const browserSeed = await storedSeed();
      await expect.poll(async () => (await seedsOf()).active.clientSeed, { timeout: 10_000 }).toBe(browserSeed);

      // A daily spin first: its row says its seed is not revealed yet.
      await page.getByRole("tab", { name: "Daily Spin" }).click();
      await page.getByRole("button", { name: "Spin for Free Coins" }).click();
      await expect.poll(() => text(page, "spin-result"), { timeout: 20_000 }).toMatch(/^\+\d/);
      await page.getByTestId("spin-row").first().getByText("not yet revealed").waitFor({ timeout: 10_000 });
      await page.getByRole("tab", { name: "Games" }).click();

      await openGame(page, "dice");
      // 1 coin at 50 %: a win pays 1.98, rounded without bias from the round's stream
      await setAmount(page, 1);
      await page.getByTestId("dice-target").fill("50");
      await press(page, "bet-button");
      await settled(page);
      const shown = await shownResult(page);

      // Before the rotation, the row says its seed is not revealed yet.
      const row = page.getByTestId("my-bets").getByTestId("my-bet-row").first();
      await row.getByTestId("my-bet-unrevealed").waitFor({ timeout: 10_000 });

      // The seeds panel shows the pair the round was played with and the next seed's commitment.
      await page.getByTestId("seeds-button").click();
      const panel = page.getByTestId("seeds-panel");
      await panel.waitFor();
      await expect.poll(() => text(page, "seeds-nonce")).toBe("2");
      const activeHash = await text(page, "seeds-server-hash");
      const nextHash = await text(page, "seeds-next-hash");
      expect(await text(page, "seeds-client-seed")).toBe(browserSeed);
      const before = await seedsOf();
      expect(before.active).toEqual({ serverSeedHash: activeHash, clientSeed: browserSeed, nonce: 2, nextServerSeedHash: nextHash });
      await page.screenshot({ path: `${ARTIFACTS}/fairness-seeds-panel.png` });

      // Rotating reveals the seed behind the hash shown, and promotes the seed committed as next.
      await page.getByTestId("seeds-rotate").click();
      await page.getByTestId("seeds-revealed").waitFor({ timeout: 10_000 });
      const revealedSeed = await text(page, "seeds-revealed-seed");
      expect(revealedSeed).toMatch(/^[0-9a-f]{64}$/);
      expect(sha256(revealedSeed)).toBe(activeHash);
      await expect.poll(() => text(page, "seeds-server-hash")).toBe(nextHash);
      expect(await text(page, "seeds-next-hash")).not.toBe(nextHash);
      expect(await text(page, "seeds-nonce")).toBe("0");
      expect(await text(page, "seeds-client-seed")).toBe(browserSeed);
      await page.screenshot({ path: `${ARTIFACTS}/fairness-seeds-rotated.png` });
      // Its own Close button: Escape would go to the round's result toast while that is still showing.
      await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
      await panel.waitFor({ state: "detached" });

      // The server's record of the round.
      const [recorded, spun] = (await api<{ items: any[] }>(t.baseUrl, `/api/player/${s.playerId}/history?limit=10`, s.token)).items;
      expect(spun).toMatchObject({ kind: "daily_spin", fairness: { serverSeed: revealedSeed } });
      expect(recorded).toMatchObject({ kind: "round", gameType: "dice", payout: shown.payout, betAmount: shown.stake });
      expect(recorded.fairness.serverSeed).toBe(revealedSeed);

      // The history row now links to the verifier; following it re-derives the round in the browser.
      const link = row.getByTestId("my-bet-verify");
      await link.waitFor({ timeout: 10_000 });
      await link.click();
      await page.getByTestId("verify-page").waitFor({ timeout: 20_000 });
      expect(new URL(page.url()).pathname).toBe("/verify");
      const result = page.getByTestId("verify-result");
      await result.waitFor();
      expect(await page.getByTestId("verify-commitment").getAttribute("data-matches")).toBe("true");
      expect(await text(page, "verify-seed-hash")).toBe(activeHash);
      expect({
        stake: Number(await result.getAttribute("data-stake")),
        payout: Number(await result.getAttribute("data-payout")),
        result: await result.getAttribute("data-result"),
      }).toEqual({ stake: recorded.betAmount, payout: recorded.payout, result: recorded.result });
      expect(JSON.parse((await page.getByTestId("verify-view").textContent()) ?? "null")).toEqual(recorded.outcome);
      expect(await text(page, "verify-summary")).toContain(`paid ${recorded.payout}`);
      expect(recorded.rounding).toBe(2);
      expect(await text(page, "verify-rounding-rule")).toBe("Payout rounding: rule 2 (unbiased)");
      if (recorded.payout > 0) await page.getByTestId("verify-step").first().getByText("rounding 1 + 49/50").waitFor();
      await page
        .getByTestId("verify-step")
        .first()
        .getByText(`= ${recorded.outcome.roll.toFixed(2)}`)
        .waitFor();
      await page.screenshot({ path: `${ARTIFACTS}/fairness-verify-page.png`, fullPage: true });

      // A changed seed no longer matches its commitment.
      await page.getByTestId("verify-serverSeed").fill(sha256("not the seed"));
      await expect.poll(() => page.getByTestId("verify-commitment").getAttribute("data-matches")).toBe("false");

      // Back in the casino, the game is where the player left it, signed in as before.
      await page.getByRole("link", { name: "Back to the casino" }).click();
      await page.getByTestId("table-dice").waitFor({ timeout: 20_000 });

      // The spin's row links to the verifier too, and the wheel re-derives to the prize recorded.
      await page.getByRole("button", { name: "Back to Lobby" }).click();
      await page.getByRole("tab", { name: "Daily Spin" }).click();
      await page.getByTestId("spin-row").first().getByRole("link", { name: "Verify" }).click();
      const wheel = page.getByTestId("verify-result");
      await wheel.waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("verify-commitment").getAttribute("data-matches")).toBe("true");
      expect(Number(await wheel.getAttribute("data-payout"))).toBe(spun.payout);
      expect(JSON.parse((await page.getByTestId("verify-view").textContent()) ?? "null")).toEqual(spun.outcome);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a shared link opens the verifier in a fresh browser without making a guest", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const guests: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/guest")) guests.push(r.url());
    });
    try {
      // The specification's own worked example: dice, nonce 1, over 50 (docs/fairness.md, section 5).
      const seed = "7bfae0f300dcf6538825629299477bd1f680fc99ad50cc0a6fc9522d913db031";
      const query = `game=dice&serverSeed=${seed}&serverSeedHash=${sha256(seed)}&clientSeed=lucky-player-7&nonce=1&amount=100&params=${encodeURIComponent('{"target":50,"direction":"over"}')}`;
      await page.goto(`${t.baseUrl}/verify?${query}`);
      const result = page.getByTestId("verify-result");
      await result.waitFor({ timeout: 20_000 });
      expect(await page.getByTestId("verify-commitment").getAttribute("data-matches")).toBe("true");
      expect(await result.getAttribute("data-payout")).toBe("198");
      await page.screenshot({ path: `${ARTIFACTS}/fairness-verify-phone.png`, fullPage: true });
      await page.getByRole("link", { name: "How it works" }).click();
      await page.getByTestId("fairness-page").getByText("Provably fair: the exact specification").waitFor();
      expect(guests).toEqual([]);
      await page.screenshot({ path: `${ARTIFACTS}/fairness-spec-phone.png` });
    } finally {
      await context.close();
    }
  });
});
