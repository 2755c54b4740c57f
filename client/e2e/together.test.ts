import { copyFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { formatMultiplier, replayRound, roundCustomId, seedCommitment } from "@casino/common";
import { ask, joinCasino } from "../../server/test/room-helpers";
import { PHONE, shot } from "./support";
import { acceptTerms, frameOf } from "./fake-discord-host";
import { openGame, press, setAmount } from "./games-helpers";
import { setupBrowserApp } from "./browser-app";

/**
 * Playing together inside Discord: three players in one activity instance and one in another, each in
 * the fake Discord host, against the real server. Who is here, the live feeds, the rich presence,
 * invites, share links and the phone's safe areas.
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, env: { BET_RATE_PER_SECOND: "1000" } });

type HostLog = { player: string; cmd: string; args: any }[];
const hostLog = (page: Page) => page.evaluate(() => (window as unknown as { fakeDiscord: { log: HostLog } }).fakeDiscord.log);

async function openHost(
  players: string[],
  options: { instanceId: string; viewport?: { width: number; height: number }; dm?: boolean; customId?: string; platform?: string },
) {
  const page = await browser.newPage({ viewport: options.viewport ?? { width: 1800, height: 1000 } });
  await page.goto(host.url(`${t.baseUrl}/`, { players, ...options }));
  return page;
}

const names = async (frame: Frame) => (await frame.getByTestId("together-member-name").allTextContents()).sort();
const playerId = async (discordId: string) =>
  (await t.app.services.db.run((em) => em.query(`SELECT id FROM players WHERE discord_id = $1`, [discordId])))[0].id as string;

/**
 * Gives the player an active server seed whose first limbo round at target 20 (100 coins) wins, keeping
 * a client seed of the test's choosing, as if one round had been played on it (nonce 1): a reloaded
 * frame's client seed (its storage is refused in a third-party frame, so it is a new one) then no longer
 * replaces it.
 */
async function winningSeed(id: string) {
  const db = t.app.services.db;
  const clientSeed = "0123456789abcdef0123456789abcdef";
  for (let i = 0; i < 1000; i++) {
    const input = { serverSeed: `together-e2e-${i}`, clientSeed, nonce: 1 };
    if (replayRound(input, { game: "limbo", amount: 100, params: { target: 20 }, actions: [] }).totalPayout === 0) continue;
    await db.run((em) =>
      em.query(
        `UPDATE fairness_seeds SET server_seed = $2, server_seed_hash = $3, client_seed = $4, nonce = 1 WHERE player_id = $1 AND active AND nonce = 0`,
        [id, input.serverSeed, seedCommitment(input.serverSeed), clientSeed],
      ),
    );
    return input;
  }
  throw new Error("no winning seed among 1000");
}

/**
 * The README's picture of three players in one instance (`npm run screenshots:together` sets
 * README_PICTURES): Ann at her table, told Ben watches; Ben watching her round; Cid's strip and the
 * activity's feed. Always kept in test-artifacts/.
 */
async function pictureOfThree(page: Page, ben: Frame, cid: Frame) {
  await page.setViewportSize({ width: 1800, height: 1200 });
  // Cid sits at the dice table, the strip and the activity's feed below it.
  await openGame(cid, "dice");
  for (const frame of [ben, cid]) {
    for (const close of await frame.locator('[data-testid="toast"] [aria-label="Dismiss"]').all())
      await close.evaluate((el) => (el as HTMLElement).click());
  }
  await cid.getByTestId("together-panel").evaluate((el) => el.scrollIntoView({ block: "end" }));
  await page.mouse.move(0, 0);
  await shot(page, "together-three-players-watch");
  if (process.env.README_PICTURES)
    copyFileSync("test-artifacts/together-three-players-watch.png", "docs/screenshots/together-three-players.png");
}

describe("playing together in one activity instance", () => {
  it("shows who is here, feeds a win to the others, sets the rich presence, invites and shares", async () => {
    const page = await openHost(["300000000000000001:Alice", "300000000000000002:Bob", "300000000000000003:Carol:Caz"], {
      instanceId: "i-together-1",
    });
    const other = await openHost(["300000000000000004:Dave"], { instanceId: "i-together-2", viewport: { width: 900, height: 1000 } });
    await Promise.all([0, 1, 2].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    await acceptTerms(other.frameLocator("iframe").first());
    const [alice, bob, carol] = await Promise.all([0, 1, 2].map((i) => frameOf(page, i)));
    const dave = await frameOf(other, 0);

    // Who is here: Discord's participants by guild nickname first, oneself marked; the other instance apart.
    for (const frame of [alice!, bob!, carol!]) await expect.poll(() => names(frame), { timeout: 20_000 }).toHaveLength(3);
    expect(await names(bob!)).toEqual(["Alice", "Bob (you)", "Caz"]);
    expect(await names(carol!)).toEqual(["Alice", "Bob", "Caz (you)"]);
    await expect.poll(() => names(dave), { timeout: 20_000 }).toEqual(["Dave (you)"]);
    // Alone in the activity: the invite is offered loudly.
    expect(await dave.getByTestId("invite-button").textContent()).toContain("Invite friends to play");
    expect(await bob!.getByTestId("invite-button").textContent()).not.toContain("friends");

    // Alice gets a seed whose first limbo round at target 20 wins, and is reloaded (as Discord would) to
    // show it.
    const aliceId = await playerId("300000000000000001");
    const input = await winningSeed(aliceId);
    await page.evaluate(() => (window as unknown as { fakeDiscord: { reload(i: number): void } }).fakeDiscord.reload(0));
    const aliceAgain = await frameOf(page, 0);
    await aliceAgain.getByTestId("lobby-heading").waitFor({ timeout: 30_000 });
    await openGame(aliceAgain, "limbo");
    // The others see where she sits.
    await expect
      .poll(
        async () =>
          await bob!.getByTestId("together-member").filter({ hasText: "Alice" }).getByTestId("together-member-game").textContent(),
        {
          timeout: 20_000,
        },
      )
      .toBe("Playing Limbo");

    await setAmount(aliceAgain, 100);
    await aliceAgain.getByTestId("limbo-target").fill("20");
    await press(aliceAgain, "bet-button");
    const settledAt = Date.now();
    const bigRow = (frame: Frame, feed: string) => frame.getByTestId(feed).getByTestId("feed-row").filter({ hasText: "Alice" });
    await Promise.all([
      bigRow(bob!, "feed-instance").first().waitFor({ timeout: 10_000 }),
      bigRow(carol!, "feed-instance").first().waitFor({ timeout: 10_000 }),
    ]);
    const latencyMs = Date.now() - settledAt;
    console.log(`feed: Alice's settled round was on Bob's and Carol's screens ${latencyMs} ms after her answer (loaded machine)`);
    expect(await bigRow(bob!, "feed-instance").first().getAttribute("data-big")).toBe("true");
    // The bet's own multiplier, then what was paid and the net figure, apart and labelled.
    expect(await bigRow(bob!, "feed-instance").first().textContent()).toContain("20.00× paid 2,000 +1,900");
    // A big win reaches the global feed of the other instance too; its own instance feed stays empty.
    await bigRow(dave, "feed-global").first().waitFor({ timeout: 10_000 });
    expect(await dave.getByTestId("feed-instance").getByTestId("feed-row").count()).toBe(0);
    await expect
      .poll(() => bob!.getByTestId("together-member").filter({ hasText: "Alice" }).getByTestId("together-member-best").textContent(), {
        timeout: 10_000,
      })
      .toBe("Best today +1,900");
    await shot(page, "together-three-players");

    // The rich presence: what she plays, the party's size, when she started.
    await expect
      .poll(
        async () => (await hostLog(page)).filter((l) => l.player === "300000000000000001" && l.cmd === "SET_ACTIVITY").pop()?.args.activity,
        {
          timeout: 20_000,
        },
      )
      .toMatchObject({
        type: 0,
        details: "Playing Limbo",
        party: { id: "i-together-1", size: [3, 25] },
        timestamps: { start: expect.any(Number) },
      });

    // Invite and share: the host received exactly what the buttons send.
    await aliceAgain.getByTestId("invite-button").click();
    await expect
      .poll(async () => (await hostLog(page)).some((l) => l.player === "300000000000000001" && l.cmd === "OPEN_INVITE_DIALOG"))
      .toBe(true);
    await aliceAgain.getByTestId("feed-instance").getByTestId("share-round").first().click();
    const [hash, nonce] = (await aliceAgain.getByTestId("feed-instance").getByTestId("feed-row").first().getAttribute("data-round"))!.split(
      ":",
    );
    expect(nonce).toBe("1");
    await expect
      .poll(async () => (await hostLog(page)).find((l) => l.cmd === "SHARE_LINK")?.args)
      .toEqual({ message: "I won 2,000 coins (20.00×) at Limbo! Virtual coins only.", custom_id: roundCustomId(hash, 1) });
    // Only Alice's own win offers the share.
    expect(await bob!.getByTestId("share-round").count()).toBe(0);
    // Her row of the Tonight board offers the same moment: the round's share link, hers only.
    await aliceAgain.getByTestId("tonight-tab").click();
    await aliceAgain.getByTestId("tonight-share").click();
    await expect
      .poll(async () => (await hostLog(page)).filter((l) => l.cmd === "SHARE_LINK").map((l) => l.args))
      .toEqual([expect.anything(), { message: "I won 2,000 coins at Limbo! Virtual coins only.", custom_id: roundCustomId(hash, 1) }]);
    await bob!.getByTestId("tonight-tab").click();
    await expect.poll(() => bob!.getByTestId("tonight-row").count(), { timeout: 20_000 }).toBe(3);
    expect(await bob!.getByTestId("tonight-share").count()).toBe(0);
    for (const frame of [aliceAgain, bob!]) await frame.getByRole("tab", { name: "Live in this activity" }).click();

    // Before the seed is revealed the row says so; after, it opens the verifier.
    await bigRow(bob!, "feed-instance").first().click();
    await bob!.getByTestId("toast").filter({ hasText: "Not verifiable yet" }).waitFor();
    const aliceSession = await t.request("POST", "/api/token", { body: { code: "ok:300000000000000001:Alice" } });
    const casino = await joinCasino(t, aliceSession.body.session_token);
    expect((await ask(casino.room, casino.inbox, "seed:rotate", {})).type).toBe("result");
    await casino.room.leave(true);
    await bigRow(carol!, "feed-instance").first().click();
    await carol!.getByTestId("verify-page").waitFor({ timeout: 20_000 });
    expect(new URL(carol!.url()).searchParams.get("game")).toBe("limbo");
    expect(new URL(carol!.url()).searchParams.get("serverSeed")).toBe(input.serverSeed);

    // A launch from the share link opens that round.
    const shared = await openHost(["300000000000000005:Frank"], {
      instanceId: "i-together-3",
      customId: roundCustomId(hash, 1),
      viewport: { width: 900, height: 1000 },
    });
    const frank = await frameOf(shared, 0);
    await frank.getByTestId("verify-page").waitFor({ timeout: 30_000 });
    expect(new URL(frank.url()).searchParams.get("serverSeedHash")).toBe(hash);
    await shared.close();
    await Promise.all([page.close(), other.close()]);
    await t.expectLedgerInvariant();
  });

  it("lets a member watch another's table live, shows the watched player who watches, and keeps other instances out", async () => {
    const page = await openHost(["300000000000000011:Ann", "300000000000000012:Ben", "300000000000000013:Cid"], {
      instanceId: "i-watch-1",
    });
    await Promise.all([0, 1, 2].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    const [ann, ben, cid] = await Promise.all([0, 1, 2].map((i) => frameOf(page, i)));
    for (const frame of [ann!, ben!, cid!]) await expect.poll(() => names(frame), { timeout: 20_000 }).toHaveLength(3);
    const member = (frame: Frame, name: string) => frame.getByTestId("together-member").filter({ hasText: name });

    // The strip is the first thing of the lobby: above the game tiles.
    const stripTop = (await ben!.getByTestId("together-strip").boundingBox())!.y;
    const tilesTop = (await ben!.locator('[data-testid^="game-tile-"]').first().boundingBox())!.y;
    expect(stripTop).toBeLessThan(tilesTop);

    // Ann sits at the mines table: Ben can watch her; nobody is offered to watch a member in the lobby.
    await openGame(ann!, "mines");
    await expect
      .poll(() => member(ben!, "Ann").getByTestId("together-member-game").textContent(), { timeout: 20_000 })
      .toBe("Playing Mines");
    expect(await member(ben!, "Cid").getByTestId("watch-button").count()).toBe(0);
    await member(ben!, "Ann").getByTestId("watch-button").click();
    await ben!.getByTestId("watch-waiting").waitFor({ timeout: 10_000 });
    // Ann sees Ben watching; Cid sees it in the strip too.
    await ann!.getByTestId("watched-by").filter({ hasText: "Watched by Ben" }).waitFor({ timeout: 10_000 });
    await expect
      .poll(() => member(cid!, "Ben").getByTestId("together-member-game").textContent(), { timeout: 10_000 })
      .toBe("Watching Ann");

    // Ann opens a round: Ben sees the board, every tile hidden (the mines stay on the server).
    await setAmount(ann!, 10);
    await ann!.getByTestId("mines-count").selectOption("3");
    await press(ann!, "bet-button");
    const tiles = (state: string) => ben!.locator(`[data-testid="watch-tile"][data-state="${state}"]`).count();
    await ben!.getByTestId("watch-mines").waitFor({ timeout: 10_000 });
    expect(await tiles("hidden")).toBe(25);
    expect(await ben!.getByTestId("watch-status").getAttribute("data-status")).toBe("In play");
    // A gem (read from the test's own database, so the round goes on), then the cash-out.
    const annId = await playerId("300000000000000011");
    const [open] = await t.app.services.db.run((em) => em.query(`SELECT state FROM open_rounds WHERE player_id = $1`, [annId]));
    const mines: number[] = open.state.mines;
    const gem = [...Array(25).keys()].find((tile) => !mines.includes(tile))!;
    await press(ann!, `mines-tile-${gem}`);
    await expect.poll(() => tiles("gem"), { timeout: 10_000 }).toBe(1);
    expect(await tiles("mine")).toBe(0);
    expect(await ben!.locator(`[data-testid="watch-tile"]`).nth(gem).getAttribute("data-state")).toBe("gem");
    await press(ann!, "mines-cashout");
    await expect.poll(() => ben!.getByTestId("watch-status").getAttribute("data-status"), { timeout: 10_000 }).toBe("Won");
    // Once the round is over the mines show, as they do on Ann's screen.
    expect(await tiles("mine")).toBe(3);
    // The settled round is in Cid's feed.
    const annRow = cid!.getByTestId("feed-instance").getByTestId("feed-row").filter({ hasText: "Ann" }).first();
    await annRow.waitFor({ timeout: 10_000 });
    // Ben's view and Cid's row tell the round's own multiplier: the one Ann's My bets tells, never paid ÷ stake.
    const annBet = ann!.getByTestId("my-bets").getByTestId("my-bet-row").first();
    await expect.poll(() => annBet.getAttribute("data-multiplier"), { timeout: 10_000 }).not.toBeNull();
    const multiplier = formatMultiplier(Number(await annBet.getAttribute("data-multiplier")));
    expect(await ben!.getByTestId("watch-status").textContent()).toBe(multiplier);
    expect(await annRow.getByTestId("feed-row-multiplier").textContent()).toBe(multiplier);
    await pictureOfThree(page, ben!, cid!);

    // A player of another instance is refused by the server, whatever their client sends.
    const other = await openHost(["300000000000000014:Dot"], { instanceId: "i-watch-2", viewport: { width: 900, height: 1000 } });
    await acceptTerms(other.frameLocator("iframe").first());
    const dot = await frameOf(other, 0);
    await expect.poll(() => names(dot), { timeout: 20_000 }).toEqual(["Dot (you)"]);
    expect(await dot.getByTestId("watch-button").count()).toBe(0);
    const dotSession = await t.request("POST", "/api/token", { body: { code: "ok:300000000000000014:Dot", instanceId: "i-watch-2" } });
    const dotRoom = await t.sdk(dotSession.body.session_token).joinOrCreate("together", { instanceId: "i-watch-2" });
    const refusal = new Promise((resolve) => dotRoom.onMessage("error", resolve));
    dotRoom.send("watch", { discordId: "300000000000000011" });
    expect(await refusal).toEqual({ code: "not_watchable", message: "That player is not in this activity" });
    await dotRoom.leave(true);

    // Ben stops watching: Ann's strip no longer says so.
    await ben!.getByRole("button", { name: "Close" }).click();
    await ann!.getByTestId("watched-by").waitFor({ state: "detached", timeout: 10_000 });
    await Promise.all([page.close(), other.close()]);
    await t.expectLedgerInvariant();
  });

  it("shows who sits at the activity's blackjack table in the strip, and its Join takes a member there", async () => {
    // Each frame 1280x800 (the host lays its frames side by side, 8 px apart).
    const page = await openHost(["300000000000000021:Ivy", "300000000000000022:Jon"], {
      instanceId: "i-table-strip",
      viewport: { width: 2 * 1280 + 8, height: 800 },
    });
    await Promise.all([0, 1].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
    const [ivy, jon] = await Promise.all([0, 1].map((i) => frameOf(page, i)));
    for (const frame of [ivy!, jon!]) await expect.poll(() => names(frame), { timeout: 20_000 }).toHaveLength(2);
    const member = (frame: Frame, name: string) => frame.getByTestId("together-member").filter({ hasText: name });
    const doing = (frame: Frame, name: string) => member(frame, name).getByTestId("together-member-game").textContent();
    const mySeat = (frame: Frame) => frame.getByTestId("bj-table").getAttribute("data-my-seat");

    // Ivy joins the table from the blackjack tile and sits at seat 3: Jon's strip says so, with Join (not Watch).
    await ivy!.getByTestId("join-table-blackjack").click();
    await expect.poll(() => doing(jon!, "Ivy"), { timeout: 15_000 }).toBe("Watching the blackjack table");
    await ivy!.getByTestId("table-sit-3").click();
    await expect.poll(() => mySeat(ivy!), { timeout: 15_000 }).toBe("3");
    await expect.poll(() => doing(jon!, "Ivy"), { timeout: 15_000 }).toBe("Blackjack table, seat 3");
    expect(await member(jon!, "Ivy").getByTestId("watch-button").count()).toBe(0);
    expect(await doing(ivy!, "Jon")).toBe("In the lobby");
    // Jon's lobby with the strip at its top, dark and light, on a laptop and a phone (test-artifacts/).
    const strip = page.locator("iframe").nth(1);
    const shots = async (theme: string) => {
      await strip.screenshot({ path: `test-artifacts/together-strip-table-1280-${theme}.png` });
      await page.setViewportSize({ width: 2 * 390 + 8, height: 844 });
      await expect.poll(async () => (await strip.boundingBox())!.width).toBe(390);
      await strip.screenshot({ path: `test-artifacts/together-strip-table-390-${theme}.png` });
      await page.setViewportSize({ width: 2 * 1280 + 8, height: 800 });
    };
    for (const close of await jon!.locator('[data-testid="toast"] [aria-label="Dismiss"]').all()) await close.click();
    // Jon has picked no mode: his page follows the device's preference
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => jon!.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await shots("dark");
    await jon!.getByRole("link", { name: "Settings" }).click();
    await jon!.getByRole("radio", { name: "Light", exact: true }).click();
    await jon!.getByRole("button", { name: "Back" }).click();
    await member(jon!, "Ivy").waitFor();
    await shots("light");

    // Jon presses Join: he arrives at the same table, watching, Ivy in seat 3; Ivy's strip says he watches it.
    await member(jon!, "Ivy").getByTestId("join-table-button").click();
    await jon!.locator('[data-testid="bj-table"]:not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
    expect(await mySeat(jon!)).toBe("");
    await expect(jon!.getByTestId("table-seat-3").textContent()).resolves.toContain("Ivy");
    await expect.poll(() => doing(ivy!, "Jon"), { timeout: 15_000 }).toBe("Watching the blackjack table");
    // Both at the table: nobody is offered to join it again.
    expect(await jon!.getByTestId("join-table-button").count()).toBe(0);
    // Between rounds the table offers Discord's invite to its free seats.
    await jon!.getByTestId("table-invite-button").click();
    await expect
      .poll(async () => (await hostLog(page)).some((l) => l.player === "300000000000000022" && l.cmd === "OPEN_INVITE_DIALOG"))
      .toBe(true);
    await strip.screenshot({ path: "test-artifacts/together-table-joined-1280-light.png" });

    // He takes the free seat 5 between rounds; then plays solo, and the strip's Join takes him back to the table.
    await jon!.getByTestId("table-sit-5").click();
    await expect.poll(() => mySeat(jon!), { timeout: 15_000 }).toBe("5");
    await expect.poll(() => doing(ivy!, "Jon"), { timeout: 15_000 }).toBe("Blackjack table, seat 5");
    await jon!.getByTestId("table-leave").click();
    await expect.poll(() => mySeat(jon!), { timeout: 15_000 }).toBe("");
    await jon!.getByTestId("blackjack-mode-solo").click();
    await expect.poll(() => doing(ivy!, "Jon"), { timeout: 15_000 }).toBe("Playing Blackjack");
    await member(jon!, "Ivy").getByTestId("join-table-button").click();
    await expect.poll(() => jon!.getByTestId("blackjack-mode-table").getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => doing(ivy!, "Jon"), { timeout: 15_000 }).toBe("Watching the blackjack table");
    await page.close();
  });

  it("invites friends between rounds at the shared crash table, where Discord allows it", async () => {
    const page = await openHost(["300000000000000015:Eve"], { instanceId: "i-crash-invite", viewport: { width: 900, height: 1000 } });
    await acceptTerms(page.frameLocator("iframe").first());
    const eve = await frameOf(page, 0);
    await openGame(eve, "crash");
    await eve.getByTestId("crash-room").waitFor({ timeout: 20_000 });
    await eve.locator('[data-testid="crash-room"]:not([data-phase="running"]):not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
    await eve.getByTestId("crash-invite-button").click();
    await expect
      .poll(async () => (await hostLog(page)).some((l) => l.player === "300000000000000015" && l.cmd === "OPEN_INVITE_DIALOG"))
      .toBe(true);
    await page.close();
  });

  it("offers no invite in a DM, where Discord refuses it", async () => {
    const page = await openHost(["300000000000000006:Gina"], {
      instanceId: "i-together-dm",
      dm: true,
      viewport: { width: 900, height: 1000 },
    });
    await acceptTerms(page.frameLocator("iframe").first());
    const gina = await frameOf(page, 0);
    await expect.poll(() => names(gina), { timeout: 20_000 }).toEqual(["Gina (you)"]);
    expect(await gina.getByTestId("invite-button").count()).toBe(0);
    await openGame(gina, "crash");
    await gina.locator('[data-testid="crash-room"]:not([data-phase="connecting"])').waitFor({ timeout: 20_000 });
    expect(await gina.getByTestId("crash-invite-prompt").count()).toBe(0);
    expect((await hostLog(page)).some((l) => l.cmd === "OPEN_INVITE_DIALOG")).toBe(false);
    await page.close();
  });

  it("keeps a phone's content inside Discord's safe areas, with a fallback while they are empty", async () => {
    const page = await openHost(["300000000000000007:Hugo"], { instanceId: "i-together-phone", platform: "mobile", viewport: PHONE });
    const terms = page.frameLocator("iframe").first().getByRole("dialog", { name: "Updated Terms & Privacy Policy" });
    await terms.waitFor({ timeout: 30_000 });
    const hugo = await frameOf(page, 0);
    const padding = () =>
      hugo.evaluate(() => [
        getComputedStyle(document.body).paddingTop,
        getComputedStyle(document.body).paddingRight,
        getComputedStyle(document.body).paddingBottom,
      ]);
    // Discord has not filled its insets yet: 48 px at the top in portrait, with a dialog open (its scroll
    // lock set the body's padding to 0 before) and right after it closes.
    expect(await hugo.evaluate(() => document.body.hasAttribute("data-scroll-locked"))).toBe(true);
    expect(await padding()).toEqual(["48px", "0px", "0px"]);
    await acceptTerms(page.frameLocator("iframe").first());
    expect(await padding()).toEqual(["48px", "0px", "0px"]);
    await hugo.evaluate(() => {
      document.documentElement.style.setProperty("--discord-safe-area-inset-top", "30px");
      document.documentElement.style.setProperty("--discord-safe-area-inset-bottom", "20px");
    });
    await expect.poll(padding).toEqual(["30px", "0px", "20px"]);
    // The sticky header stops below the inset.
    expect(await hugo.evaluate(() => getComputedStyle(document.querySelector("header.sticky")!).top)).toBe("30px");
    await shot(page, "together-phone-insets");
    // The strip is at the top of the lobby, compact: no horizontal scroll at 390 or 360 px.
    const stripTop = (await hugo.getByTestId("together-strip").boundingBox())!.y;
    expect(stripTop).toBeLessThan((await hugo.locator('[data-testid^="game-tile-"]').first().boundingBox())!.y);
    const overflow = () => hugo.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    await page.setViewportSize({ width: 360, height: 640 });
    await expect.poll(() => hugo.evaluate(() => window.innerWidth)).toBe(360);
    expect(await overflow()).toBe(0);
    await shot(page, "together-phone-360");
    await page.close();
  });
});
