import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { HOLDEM_HAND_PAUSE_MS } from "@casino/common/holdem-table";
import { ManualClock } from "../../server/src/platform/clock";
import { acceptTerms, frameOf } from "./fake-discord-host";
import { setupBrowserApp } from "./browser-app";
import { attr, openTable } from "./holdem-frames";

/**
 * The activity instance's Hold'em table among the people of the instance, in the fake Discord host
 * against the real server: the "In this activity" strip says who watches the table and who sits at
 * which seat, its Join takes a member there, the rich presence says "At the Hold'em table", and
 * Discord's invite is offered at the table only while no hand is being played with the player in it.
 * The room runs on a ManualClock: a hand is dealt only when the test moves the clock past the pause.
 */
const clock = new ManualClock(Date.now());
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, clock, timeout: 120_000 });

type HostLog = { player: string; cmd: string; args: any }[];
const hostLog = (page: Page) => page.evaluate(() => (window as unknown as { fakeDiscord: { log: HostLog } }).fakeDiscord.log);
const names = async (frame: Frame) => (await frame.getByTestId("together-member-name").allTextContents()).sort();
const member = (frame: Frame, name: string) => frame.getByTestId("together-member").filter({ hasText: name });
const doing = (frame: Frame, name: string) => member(frame, name).getByTestId("together-member-game").textContent();
const presence = async (page: Page, player: string) =>
  (await hostLog(page)).filter((l) => l.player === player && l.cmd === "SET_ACTIVITY").pop()?.args.activity;
const invited = async (page: Page, player: string) =>
  (await hostLog(page)).filter((l) => l.player === player && l.cmd === "OPEN_INVITE_DIALOG").length;

const KAY = "300000000000000041";
const LEE = "300000000000000042";

describe("the activity's Hold'em table in the strip", () => {
  it("shows who watches and who sits at which seat, joins a member there, tells the rich presence, and invites between hands", async () => {
    const page = await (await browser.newContext({ viewport: { width: 3 * 1280 + 16, height: 800 } })).newPage();
    await page.goto(
      host.url(`${t.baseUrl}/`, { players: [`${KAY}:Kay`, `${LEE}:Lee`, "300000000000000043:Mo"], instanceId: "i-holdem-strip" }),
    );
    await Promise.all([0, 1, 2].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    const [kay, lee, mo] = await Promise.all([0, 1, 2].map((i) => frameOf(page, i)));
    for (const frame of [kay!, lee!, mo!]) await expect.poll(() => names(frame), { timeout: 20_000 }).toHaveLength(3);

    // Kay opens the instance's Hold'em table from the poker tile: the others' strips say she watches it.
    await openTable(kay!);
    await expect.poll(() => doing(mo!, "Kay"), { timeout: 15_000 }).toBe("Watching the Hold'em table");
    await expect.poll(() => presence(page, KAY), { timeout: 15_000 }).toMatchObject({ details: "Watching the Hold'em table" });

    // She sits at seat 2: the strip names the seat, with Join instead of Watch; her status says she sits there.
    await kay!.getByTestId("holdem-buy-in").fill("200");
    await kay!.getByTestId("holdem-sit-2").click();
    await expect.poll(() => attr(kay!, "data-my-seat"), { timeout: 15_000 }).toBe("2");
    await expect.poll(() => doing(mo!, "Kay"), { timeout: 15_000 }).toBe("Hold'em table, seat 2");
    expect(await member(mo!, "Kay").getByTestId("together-member-game").getAttribute("data-holdem-seat")).toBe("2");
    expect(await member(mo!, "Kay").getByTestId("watch-button").count()).toBe(0);
    await expect
      .poll(() => presence(page, KAY), { timeout: 15_000 })
      .toMatchObject({ details: "At the Hold'em table", party: { id: "i-holdem-strip" } });

    // Alone at the table, no hand runs: the table offers Discord's invite.
    await kay!.getByTestId("holdem-invite-button").click();
    await expect.poll(() => invited(page, KAY)).toBe(1);

    // Lee presses Join in the strip: he arrives at the same table, watching; then sits at seat 5.
    await member(lee!, "Kay").getByTestId("join-holdem-button").click();
    await lee!.locator('[data-testid="holdem-table"]:not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
    expect(new URL(lee!.url()).pathname).toBe("/holdem");
    expect(await attr(lee!, "data-my-seat")).toBe("");
    await expect.poll(() => lee!.getByTestId("holdem-seat-2").textContent(), { timeout: 15_000 }).toContain("Kay");
    await expect.poll(() => doing(mo!, "Lee"), { timeout: 15_000 }).toBe("Watching the Hold'em table");
    await lee!.getByTestId("holdem-buy-in").fill("100");
    await lee!.getByTestId("holdem-sit-5").click();
    await expect.poll(() => attr(lee!, "data-my-seat"), { timeout: 15_000 }).toBe("5");
    await expect.poll(() => doing(mo!, "Lee"), { timeout: 15_000 }).toBe("Hold'em table, seat 5");

    // Between hands (the pause before the first) the invite is still offered; once hand 1 is dealt with
    // them in it, neither player is offered it.
    await expect.poll(() => attr(kay!, "data-next-hand-at"), { timeout: 15_000 }).not.toBe("");
    expect(await kay!.getByTestId("holdem-invite-prompt").count()).toBe(1);
    clock.advance(HOLDEM_HAND_PAUSE_MS);
    for (const frame of [kay!, lee!]) {
      await expect.poll(() => attr(frame, "data-hand"), { timeout: 15_000 }).toBe("1");
      await expect.poll(() => frame.getByTestId("holdem-invite-prompt").count(), { timeout: 15_000 }).toBe(0);
    }

    // The player to act folds: the hand is over, and the invite is offered again while the result shows.
    const toAct = Number(await attr(kay!, "data-to-act"));
    const acting = toAct === 2 ? kay! : lee!;
    await acting.getByTestId("holdem-fold").click();
    await expect.poll(() => attr(kay!, "data-street"), { timeout: 15_000 }).toBe("complete");
    for (const frame of [kay!, lee!])
      await expect.poll(() => frame.getByTestId("holdem-invite-prompt").count(), { timeout: 15_000 }).toBe(1);

    // Lee leaves the seat: the strip says he watches again; both stacks are back on the balances once they leave.
    await lee!.getByTestId("holdem-leave").click();
    await expect.poll(() => attr(lee!, "data-my-seat"), { timeout: 15_000 }).toBe("");
    await expect.poll(() => doing(mo!, "Lee"), { timeout: 15_000 }).toBe("Watching the Hold'em table");
    await kay!.getByTestId("holdem-leave").click();
    await expect.poll(() => attr(kay!, "data-my-seat"), { timeout: 15_000 }).toBe("");
    const rows = await t.app.services.db.run((em) =>
      em.query(
        `SELECT p.discord_id, s.buy_in::int, s.cashed_out::int FROM holdem_seats s JOIN players p ON p.id = s.player_id
          WHERE p.discord_id = ANY($1) ORDER BY p.discord_id`,
        [[KAY, LEE]],
      ),
    );
    expect(rows.map((r: { cashed_out: number | null }) => r.cashed_out !== null)).toEqual([true, true]);
    expect(rows.reduce((sum: number, r: { buy_in: number; cashed_out: number }) => sum + r.cashed_out - r.buy_in, 0)).toBe(0);
    await t.expectLedgerInvariant();
    await page.close();
  });
});
