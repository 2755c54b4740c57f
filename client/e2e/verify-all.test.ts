import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import type { HistoryItem } from "@casino/common/api";
import { CASES, driverGaps, stakeOf } from "./games-cases";
import { api, backToLobby, history, openAsGuest, openGame, setAmount, settled, shownResult } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * The fairness promise end to end, for every chance game: a guest plays one round of each through its
 * table, rotates the seeds in the Fairness panel, then follows each round's Verify link from "My bets";
 * the verifier page re-derives in the browser what the server recorded, and the offline CLI
 * (`common/scripts/verify.ts`, spawned as a player runs it) prints the same outcome.
 */
const { server: t, browser } = setupBrowserApp();

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const execFileP = promisify(execFile);
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? "").trim();

/** The round's line as the verifier states it, from the server's record. */
const summaryOf = (row: HistoryItem) => `${row.gameType}: staked ${row.betAmount}, paid ${row.payout} (${row.result})`;

/**
 * Runs the verifier CLI on the player's history page as the server answered it (docs/fairness.md,
 * section 5: `--history`), as a player runs it offline; answers what it says of each round.
 */
async function cli(
  page: unknown,
): Promise<{ id: string; problems: string[]; summary: string | null; commitment: { matches: boolean | null } }[]> {
  const dir = mkdtempSync(join(tmpdir(), "history-"));
  try {
    const file = join(dir, "history.json");
    writeFileSync(file, JSON.stringify(page));
    const { stdout } = await execFileP(process.execPath, ["--import", "tsx", "common/scripts/verify.ts", "--history", file, "--json"], {
      cwd: ROOT,
      timeout: 60_000,
    });
    return JSON.parse(stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("verifying a round of every chance game", () => {
  it("the drivers cover every chance game of the catalogue", () => {
    expect(driverGaps()).toEqual([]);
  });

  it(
    "one round of each, a rotation, and each Verify link and the CLI re-derive what the server recorded",
    { timeout: 300_000 },
    async () => {
      const { context, page, session } = await openAsGuest(browser, t.baseUrl);
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      try {
        const s = await session();

        // One round of each game through its table, the table showing what the server recorded.
        for (const game of CASES) {
          await openGame(page, game.id);
          await setAmount(page, stakeOf(game));
          await game.play(page);
          await settled(page);
          const shown = await shownResult(page);
          const [round] = await history(t.baseUrl, s);
          expect(round!.gameType).toBe(game.id);
          expect({ payout: shown.payout, result: shown.result }, game.id).toEqual({ payout: round!.payout, result: round!.result });
          await game.check(page, round!.outcome, stakeOf(game));
          if (game !== CASES[CASES.length - 1]) await backToLobby(page);
        }

        // Before the rotation the last round cannot be verified yet.
        await page.getByTestId("my-bets").getByTestId("my-bet-unrevealed").first().waitFor({ timeout: 10_000 });

        // Rotate in the Fairness panel of the last game's top bar: the seed behind the hash shown is revealed.
        await page.getByTestId("seeds-button").click();
        await page.getByTestId("seeds-panel").waitFor();
        await expect.poll(() => text(page, "seeds-nonce")).toBe(String(CASES.length));
        const activeHash = await text(page, "seeds-server-hash");
        await page.getByTestId("seeds-rotate").click();
        await page.getByTestId("seeds-revealed").waitFor({ timeout: 10_000 });
        const revealedSeed = await text(page, "seeds-revealed-seed");
        expect(sha256(revealedSeed)).toBe(activeHash);
        await expect.poll(() => text(page, "seeds-nonce")).toBe("0");
        // closed with its own button: while the round's toast is up, Escape dismisses the toast instead
        await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
        await page.getByTestId("seeds-panel").waitFor({ state: "detached" });
        await backToLobby(page);

        // The server's record: one round per game, each drawn from the revealed pair at its own nonce.
        const answered = await api<{ items: HistoryItem[] }>(t.baseUrl, `/api/player/${s.playerId}/history?limit=100`, s.token);
        const rounds = answered.items.filter((i) => i.kind === "round");
        expect(rounds.map((r) => r.gameType).sort()).toEqual(CASES.map((c) => c.id).sort());
        for (const r of rounds) expect(r.fairness, r.gameType).toMatchObject({ serverSeed: revealedSeed, serverSeedHash: activeHash });
        expect(rounds.map((r) => r.fairness.nonce).sort((a, b) => a! - b!)).toEqual(CASES.map((_, i) => i));
        const roundOf = (id: string) => rounds.find((r) => r.gameType === id)!;

        // The CLI runs offline beside the browser, on the history as the server answered it; its
        // output is checked after the pages.
        const printed = cli(answered);
        printed.catch(() => {}); // awaited below; a failure of the pages first must not leave it unhandled

        // Each game's "My bets" row links to the verifier, which re-derives the round in the browser.
        const pageSummaries: string[] = [];
        for (const game of CASES) {
          const recorded = roundOf(game.id);
          await openGame(page, game.id);
          const row = page.getByTestId("my-bets").getByTestId("my-bet-row");
          await expect
            .poll(async () => [await row.count(), await row.first().getAttribute("data-payout")], { timeout: 10_000 })
            .toEqual([1, String(recorded.payout)]);
          const link = row.first().getByTestId("my-bet-verify");
          await link.waitFor({ timeout: 10_000 });
          await link.click();
          const result = page.getByTestId("verify-result");
          await result.waitFor({ timeout: 20_000 });
          expect(await page.getByTestId("verify-commitment").getAttribute("data-matches"), game.id).toBe("true");
          expect(await text(page, "verify-seed-hash")).toBe(activeHash);
          expect(
            {
              stake: Number(await result.getAttribute("data-stake")),
              payout: Number(await result.getAttribute("data-payout")),
              result: await result.getAttribute("data-result"),
            },
            game.id,
          ).toEqual({ stake: recorded.betAmount, payout: recorded.payout, result: recorded.result });
          expect(JSON.parse((await page.getByTestId("verify-view").textContent()) ?? "null"), game.id).toEqual(recorded.outcome);
          const summary = await text(page, "verify-summary");
          expect(summary).toBe(summaryOf(recorded));
          pageSummaries.push(summary);
          await page.getByRole("link", { name: "Back to the casino" }).click();
          await page.getByTestId(`table-${game.id}`).waitFor({ timeout: 20_000 });
          await backToLobby(page);
        }

        // The CLI re-derives every round as recorded, with the revealed seed matching the hash shown
        // before, and says of each what the verifier page said.
        const said = await printed;
        CASES.forEach((game, i) => {
          const verdict = said.find((v) => v.id === roundOf(game.id).id);
          expect(verdict, game.id).toMatchObject({ problems: [], commitment: { matches: true }, summary: summaryOf(roundOf(game.id)) });
          expect(verdict!.summary, game.id).toBe(pageSummaries[i]);
        });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
      await t.expectLedgerInvariant();
    },
  );
});
