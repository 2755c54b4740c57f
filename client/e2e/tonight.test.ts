import { describe, expect, it } from "vitest";
import type { Frame } from "playwright-core";
import { acceptTerms, frameOf } from "./fake-discord-host";
import { openGame, press, setAmount } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * Tonight's board inside Discord: two players of one activity instance in the fake Discord host (one with
 * a guild nickname, shown as the strip shows it), against the real server. After a round of one of them,
 * both see the same board (the strip's top line and the Tonight tab), and its figures are those of the
 * server's records of that round.
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, env: { BET_RATE_PER_SECOND: "1000" } });

/** The board's rows as a frame shows them, by their attributes (who, and every figure). */
const boardOf = (frame: Frame) =>
  frame.getByTestId("tonight-row").evaluateAll((rows) =>
    rows.map((r) => ({
      name: r.querySelector('[data-testid="tonight-name"]')!.textContent,
      net: Number(r.getAttribute("data-net")),
      rounds: Number(r.getAttribute("data-rounds")),
      hands: Number(r.getAttribute("data-hands")),
      streak: Number(r.getAttribute("data-streak")),
      best: Number(r.getAttribute("data-best")),
    })),
  );

describe("tonight's board in one activity instance", () => {
  it("shows both players the same board after a round, equal to the server's record, in the strip and its tab", async () => {
    // Each frame 1280x800 (the host lays its frames side by side, 8 px apart), dark theme first.
    const context = await browser.newContext({ viewport: { width: 2 * 1280 + 8, height: 800 }, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(
      host.url(`${t.baseUrl}/`, { players: ["300000000000000031:Ann", "300000000000000032:Ben:Benny"], instanceId: "i-tonight-1" }),
    );
    await Promise.all([0, 1].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    const [ann, ben] = await Promise.all([0, 1].map((i) => frameOf(page, i)));

    // Both are on the board as soon as they are in the activity, nothing played yet.
    for (const frame of [ann!, ben!]) {
      await frame.getByTestId("tonight-tab").click();
      await expect.poll(() => boardOf(frame), { timeout: 20_000 }).toHaveLength(2);
    }
    expect((await boardOf(ben!)).every((r) => r.rounds === 0 && r.net === 0)).toBe(true);

    // Ann plays one round of limbo (100 coins at target 2).
    await openGame(ann!, "limbo");
    await setAmount(ann!, 100);
    await ann!.getByTestId("limbo-target").fill("2");
    await press(ann!, "bet-button");

    // What the server recorded of it.
    const [round] = await t.app.services.db.run((em) =>
      em.query(`SELECT g.bet_amount, g.payout FROM game_sessions g JOIN players p ON p.id = g.player_id WHERE p.discord_id = $1`, [
        "300000000000000031",
      ]),
    );
    const net = Number(round.payout) - Number(round.bet_amount);
    const annRow = { name: "Ann", net, rounds: 1, hands: 0, streak: Math.sign(net), best: Math.max(0, net) };
    const benRow = { name: "Benny", net: 0, rounds: 0, hands: 0, streak: 0, best: 0 };
    const expected = net >= 0 ? [annRow, benRow] : [benRow, annRow];

    // Pushed to both: the same board, with the server's figures; the strip's top line names Ann.
    await ann!.getByTestId("tonight-tab").click();
    for (const frame of [ann!, ben!]) await expect.poll(() => boardOf(frame), { timeout: 20_000 }).toEqual(expected);
    for (const frame of [ann!, ben!]) {
      await expect
        .poll(() => frame.getByTestId("tonight-top-entry").allTextContents(), { timeout: 20_000 })
        .toEqual([expect.stringMatching(new RegExp(`^${net >= 0 ? 1 : 2}\\. Ann ${net > 0 ? "\\+" : ""}${net}$`))]);
    }
    expect(await ann!.locator('[data-testid="tonight-row"][data-self]').getByTestId("tonight-name").textContent()).toBe("Ann");
    expect(await ben!.locator('[data-testid="tonight-row"][data-self]').getByTestId("tonight-name").textContent()).toBe("Benny");

    // The strip's line opens the tab: Ben goes back to the live feed, then to the board from the strip.
    await ben!.getByRole("tab", { name: "Live in this activity" }).click();
    await ben!.getByTestId("feed-instance").waitFor();
    await ben!.getByTestId("tonight-top").click();
    await ben!.getByTestId("tonight-board").waitFor();

    // Pictures (test-artifacts/): both frames at 1280x800 and at 390x844, dark and light.
    for (const theme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width: 2 * width + 8, height });
        await expect.poll(async () => (await page.locator("iframe").nth(1).boundingBox())!.width).toBe(width);
        for (const frame of [ann!, ben!]) await frame.getByTestId("tonight-board").evaluate((el) => el.scrollIntoView({ block: "end" }));
        await page.screenshot({ path: `test-artifacts/tonight-board-${width}-${theme}.png` });
        // Nothing of the board scrolls sideways on a phone.
        const overflow = await ben!.getByTestId("tonight-board").evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow).toBe(0);
      }
    }
    await context.close();
    await t.expectLedgerInvariant();
  });
});
