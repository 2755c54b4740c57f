import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { RACE_JOIN_WINDOW_MS, raceCustomId } from "@casino/common/together";
import { ManualClock } from "../../server/src/platform/clock";
import { acceptTerms, frameOf } from "./fake-discord-host";
import { openGame, press, setAmount } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * A race inside Discord: three players of one activity instance in the fake Discord host, against the
 * real server on the test's clock. Ann starts a 5-minute race from the Tonight tab, Ben joins it in its
 * window, Cal only watches; both race members play a round while it runs; at its end all three see the
 * same final order and winner, equal to the server's records of those rounds, and hear it announced.
 * Ann shares the result (the host receives the link's `custom_id`), and a launch from that link opens
 * the race's scoreboard.
 */
const clock = new ManualClock(Date.now());
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, clock, env: { BET_RATE_PER_SECOND: "1000" } });

type HostLog = { player: string; cmd: string; args: any }[];
const hostLog = (page: Page) => page.evaluate(() => (window as unknown as { fakeDiscord: { log: HostLog } }).fakeDiscord.log);

/** The race's rows as a frame shows them. */
const raceOf = (frame: Frame, testId = "race-card") =>
  frame
    .getByTestId(testId)
    .getByTestId("race-row")
    .evaluateAll((rows) =>
      rows.map((r) => ({
        name: r.querySelector('[data-testid="race-name"]')!.firstChild!.textContent,
        net: Number(r.getAttribute("data-net")),
        rounds: Number(r.getAttribute("data-rounds")),
        winner: r.hasAttribute("data-winner"),
      })),
    );
const phaseOf = (frame: Frame) =>
  frame
    .getByTestId("race-card")
    .getAttribute("data-phase", { timeout: 500 })
    .catch(() => null);

const PLAYERS = { Ann: "300000000000000061", Ben: "300000000000000062", Cal: "300000000000000063" } as const;

async function playLimbo(frame: Frame) {
  await openGame(frame, "limbo");
  await setAmount(frame, 100);
  await frame.getByTestId("limbo-target").fill("2");
  await press(frame, "bet-button");
}

describe("a race in one activity instance", () => {
  it("three players see the same race, its live order and the same final result, which Ann shares", async () => {
    const context = await browser.newContext({ viewport: { width: 3 * 1280 + 16, height: 800 }, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto(
      host.url(`${t.baseUrl}/`, {
        players: Object.entries(PLAYERS).map(([name, id]) => `${id}:${name}`),
        instanceId: "i-race-1",
      }),
    );
    await Promise.all([0, 1, 2].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    const [ann, ben, cal] = (await Promise.all([0, 1, 2].map((i) => frameOf(page, i)))) as [Frame, Frame, Frame];
    for (const frame of [ann, ben, cal]) {
      await frame.getByTestId("tonight-tab").click();
      await frame.getByTestId("race-start").waitFor({ timeout: 20_000 });
    }

    // Ann starts a 5-minute race: everyone sees its join window; Ben joins, Cal does not.
    await ann.getByTestId("race-start-5").click();
    for (const frame of [ann, ben, cal]) await expect.poll(() => phaseOf(frame), { timeout: 20_000 }).toBe("joining");
    expect(await ben.getByTestId("race-title").textContent()).toBe("Ann started a 5-minute race");
    expect(await ann.getByTestId("race-join").count()).toBe(0);
    await ben.getByTestId("race-join").click();
    for (const frame of [ann, ben, cal]) await expect.poll(() => raceOf(frame), { timeout: 20_000 }).toHaveLength(2);
    // A second start is not offered while it is on.
    expect(await cal.getByTestId("race-start").count()).toBe(0);

    // The server's clock closes the window: the race runs; Ann and Ben each play a round.
    await clock.advance(RACE_JOIN_WINDOW_MS);
    for (const frame of [ann, ben, cal]) await expect.poll(() => phaseOf(frame), { timeout: 20_000 }).toBe("running");
    expect(await cal.getByTestId("race-countdown").textContent()).toMatch(/^[45]:\d\d left$/);
    await playLimbo(ann);
    await playLimbo(ben);
    for (const frame of [ann, ben, cal])
      await expect.poll(async () => (await raceOf(frame)).map((r) => r.rounds), { timeout: 20_000 }).toEqual([1, 1]);

    // The end: the same final order for all three, the server's records of the two rounds.
    await clock.advance(5 * 60_000);
    const rounds = await t.app.services.db.run((em) =>
      em.query(
        `SELECT p.username, g.payout - g.bet_amount AS net FROM game_sessions g JOIN players p ON p.id = g.player_id WHERE p.discord_id = ANY($1)`,
        [[PLAYERS.Ann, PLAYERS.Ben]],
      ),
    );
    const byName = new Map<string, number>(rounds.map((r: { username: string; net: string }) => [r.username, Number(r.net)]));
    const expected = ["Ann", "Ben"]
      .map((name, joined) => ({ name, net: byName.get(name)!, rounds: 1, joined }))
      .sort((a, b) => b.net - a.net || a.joined - b.joined)
      .map(({ name, net, rounds }, i) => ({ name, net, rounds, winner: i === 0 }));
    for (const frame of [ann, ben, cal]) {
      await expect.poll(() => phaseOf(frame), { timeout: 20_000 }).toBe("finished");
      expect(await raceOf(frame)).toEqual(expected);
    }
    const winner = expected[0]!.name;
    expect(await cal.getByTestId("race-title").textContent()).toBe(`${winner} wins the race!`);
    await cal
      .getByTestId("toast")
      .filter({ hasText: `${winner} wins the race!` })
      .waitFor({ timeout: 20_000 });

    // Ann shares the result: Discord's share link names the race.
    const [race] = await t.app.services.db.run((em) => em.query(`SELECT id FROM tonight_races WHERE instance_id = 'i-race-1'`));
    await ann.getByTestId("race-share").click();
    await expect
      .poll(async () => (await hostLog(page)).find((l) => l.cmd === "SHARE_LINK")?.args, { timeout: 20_000 })
      .toEqual({ message: expect.stringContaining(`won our 5-minute race!`), custom_id: raceCustomId(race.id) });

    // Pictures (test-artifacts/): the three frames at 1280x800 and 390x844, dark and light; no sideways scroll.
    for (const theme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const [width, height] of [
        [1280, 800],
        [390, 844],
      ] as const) {
        await page.setViewportSize({ width: 3 * width + 16, height });
        await expect.poll(async () => (await page.locator("iframe").nth(2).boundingBox())!.width).toBe(width);
        for (const frame of [ann, ben, cal]) await frame.getByTestId("race-card").evaluate((el) => el.scrollIntoView({ block: "center" }));
        await page.screenshot({ path: `test-artifacts/race-${width}-${theme}.png` });
        for (const frame of [ann, cal]) {
          expect(await frame.getByTestId("race-card").evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
          expect(await frame.locator("body").evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(
            0,
          );
        }
      }
    }
    await context.close();

    // A launch from the share link, in another call, opens the race's scoreboard.
    const shared = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    await shared.goto(
      host.url(`${t.baseUrl}/`, { players: ["300000000000000064:Dee"], instanceId: "i-race-2", customId: raceCustomId(race.id) }),
    );
    await acceptTerms(shared.frameLocator("iframe").first());
    const dee = await frameOf(shared, 0);
    await expect.poll(() => raceOf(dee, "race-shared"), { timeout: 30_000 }).toEqual(expected);
    await shared.close();
    await t.expectLedgerInvariant();
  });
});
