import { describe, expect, it } from "vitest";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { DESKTOP, PHONE, shot } from "./support";
import { acceptTerms } from "./fake-discord-host";
import { setupBrowserApp } from "./browser-app";
import { faceOf as serverFace } from "../../server/src/core/players/face";

/**
 * One player, one face, inside Discord (the fake host) against the real server: the "In this activity"
 * strip, the balance leaderboard, the shared crash room's list of bets and a seat at the shared
 * blackjack table draw the same avatar for a player. Alice's Discord picture is fetched through the activity's URL mapping (/discord-cdn, on the
 * activity's own origin, which Discord's proxy forwards to its CDN; here the test answers it with a
 * picture), never from the CDN itself. Bob's picture is not there (the mapping reaches our server,
 * which answers 404): he shows the generated face, the same on every surface. The face is the player's
 * (the server's `face` seed, a short hash of the player), not the name's: two players named alike get two.
 */
// A crash betting phase far longer than the test takes to bet in it.
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, env: { CRASH_BETTING_MS: "60000" } });

const [ALICE, BOB, CAROL] = ["300000000000000701", "300000000000000702", "300000000000000703"];
/** Two players of one name. */
const [SAM_ONE, SAM_TWO] = ["300000000000000704", "300000000000000705"];
const INSTANCE = "i-faces-1";
/** An opaque 1x1 PNG (Discord's blurple), as Discord's CDN would answer an avatar. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGOISP0EAALIAbDfJSJbAAAAAElFTkSuQmCC", "base64");

const playerId = async (discordId: string) =>
  (await t.app.services.db.run((em) => em.query(`SELECT id FROM players WHERE discord_id = $1`, [discordId])))[0].id as string;

/** What an avatar draws: its kind, the picture's address and whether it loaded, and the generated face (ids of its masks left out). */
const faceOf = (avatar: Locator) =>
  avatar.evaluate((el) => {
    const img = el.querySelector("img");
    return {
      face: el.getAttribute("data-face"),
      src: img?.getAttribute("src") ?? null,
      loaded: img ? img.complete && img.naturalWidth > 0 : false,
      svg: (el.querySelector("svg")?.outerHTML ?? "").replace(/ (id|mask)="[^"]*"|url\(#[^)]*\)/g, ""),
    };
  });

const stripFace = (app: FrameLocator, name: string) => app.getByTestId("together-member").filter({ hasText: name }).getByTestId("avatar");
const boardFace = (app: FrameLocator, name: string) =>
  app.getByRole("list", { name: "Balance leaderboard" }).getByTestId("leaderboard-row").filter({ hasText: name }).getByTestId("avatar");
const crashBetFace = (app: FrameLocator, id: string) =>
  app.locator(`[data-testid="crash-room-bet"][data-player="${id}"]`).getByTestId("avatar");
const seatFace = (app: FrameLocator, id: string) => app.locator(`[data-testid^="table-seat-"][data-player="${id}"]`).getByTestId("avatar");

/** The host page of players in the instance, Alice's picture answered as Discord's proxy would. */
async function openHost(players: string[], viewport: { width: number; height: number }, seen: URL[]) {
  const page = await browser.newPage({ viewport });
  page.on("request", (request) => seen.push(new URL(request.url())));
  await page.route(`**/discord-cdn/avatars/${ALICE}/**`, (route) => route.fulfill({ status: 200, contentType: "image/png", body: PNG }));
  await page.goto(host.url(`${t.baseUrl}/`, { players, instanceId: INSTANCE }));
  return page;
}

/** From the lobby's crash tile to the instance's shared crash room. */
async function openCrashRoom(app: FrameLocator) {
  await app.getByTestId("game-tile-crash").getByRole("button", { name: "Play Now" }).click();
  // Crash opens live: the instance's shared room
  expect(await app.getByRole("tab", { name: "Live", exact: true }).getAttribute("aria-selected")).toBe("true");
  await app.locator('[data-testid="crash-room"]:not([data-phase="connecting"])').waitFor({ timeout: 20_000 });
}

/** Opens the instance's crash room and places a bet of `amount` in its betting phase. */
async function betInCrashRoom(app: FrameLocator, amount: number) {
  await openCrashRoom(app);
  await app.locator('[data-testid="crash-room"][data-phase="betting"]').waitFor({ timeout: 30_000 });
  await app.getByRole("textbox", { name: "Bet amount" }).fill(String(amount));
  await app.getByRole("button", { name: "Place bet" }).click();
}

async function joinTableAndSit(app: FrameLocator, seat: number) {
  await app.getByTestId("join-table-blackjack").click();
  await app.locator('[data-testid="bj-table"]:not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
  await app.getByTestId(`table-sit-${seat}`).click();
  await expect.poll(() => app.getByTestId("bj-table").getAttribute("data-my-seat"), { timeout: 15_000 }).toBe(String(seat));
}

/** Screenshots of the strip and the board, dark and light. */
async function pictures(page: Page, app: FrameLocator, size: string) {
  for (const colorScheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme });
    await app.getByRole("tab", { name: /Games|Play/ }).click();
    await app.getByTestId("together-strip").scrollIntoViewIfNeeded();
    await shot(page, `faces-strip-${size}-${colorScheme}`);
    await app.getByRole("tab", { name: /Leaderboard|Ranks/ }).click();
    await boardFace(app, "Alice").waitFor({ timeout: 20_000 });
    await shot(page, `faces-board-${size}-${colorScheme}`);
  }
}

describe("a player's face inside Discord", () => {
  it("is the same in the strip, on the leaderboard, in the crash room and at the table, a picture through the mapping or the generated face", async () => {
    const seen: URL[] = [];
    const page = await openHost([`${ALICE}:Alice`, `${BOB}:Bob`], { width: 2 * 1280 + 8, height: 1000 }, seen);
    const [a, b] = [page.frameLocator("iframe").nth(0), page.frameLocator("iframe").nth(1)];
    await Promise.all([acceptTerms(a), acceptTerms(b)]);
    const [aliceId, bobId] = await Promise.all([playerId(ALICE), playerId(BOB)]);
    // The server stored the Discord CDN address of each player's avatar.
    expect((await t.app.services.db.run((em) => em.query(`SELECT avatar_url FROM players WHERE id = $1`, [aliceId])))[0].avatar_url).toBe(
      `https://cdn.discordapp.com/avatars/${ALICE}/abc123.png`,
    );

    // The strip: Alice's picture through the mapped path, loaded; Bob's not found, so his generated face,
    // seeded by the server's face once they are members (a participant not in the casino yet has Discord's id).
    for (const [name, id] of [
      ["Alice", aliceId],
      ["Bob", bobId],
    ] as const) {
      for (const app of [a, b])
        await expect.poll(() => stripFace(app, name).getAttribute("data-seed"), { timeout: 20_000 }).toBe(serverFace(id));
    }
    await expect.poll(() => faceOf(stripFace(b, "Alice")), { timeout: 20_000 }).toMatchObject({ face: "picture", loaded: true });
    await expect.poll(async () => (await faceOf(stripFace(b, "Bob"))).face, { timeout: 20_000 }).toBe("generated");
    const alice = await faceOf(stripFace(b, "Alice"));
    const bob = await faceOf(stripFace(b, "Bob"));
    expect(alice.src).toBe(`/discord-cdn/avatars/${ALICE}/abc123.png`);
    expect(alice.svg).toContain("<svg");
    expect(bob.src).toBeNull();
    expect(bob.svg).toContain("<svg");
    expect(bob.svg).not.toBe(alice.svg);
    // Alice's frame draws them the same.
    await expect.poll(() => faceOf(stripFace(a, "Alice")), { timeout: 20_000 }).toEqual(alice);
    await expect.poll(() => faceOf(stripFace(a, "Bob")), { timeout: 20_000 }).toEqual(bob);

    // The leaderboard.
    await b.getByRole("tab", { name: /Leaderboard|Ranks/ }).click();
    await expect.poll(() => faceOf(boardFace(b, "Alice")), { timeout: 20_000 }).toEqual(alice);
    await expect.poll(() => faceOf(boardFace(b, "Bob")), { timeout: 20_000 }).toEqual(bob);

    // The list of bets of the shared crash room: each bets in the round's betting phase.
    await b.getByRole("tab", { name: /Games|Play/ }).click();
    for (const [app, amount] of [
      [a, 10],
      [b, 20],
    ] as const)
      await betInCrashRoom(app, amount);
    await expect.poll(() => faceOf(crashBetFace(b, aliceId)), { timeout: 20_000 }).toEqual(alice);
    await expect.poll(() => faceOf(crashBetFace(a, bobId)), { timeout: 20_000 }).toEqual(bob);
    await shot(page, "faces-crash-room-desktop");
    // Back to the lobby as Discord reloads a frame (its launch address is the lobby).
    for (const [i, app] of [a, b].entries()) {
      await page.evaluate((n) => (window as unknown as { fakeDiscord: { reload(i: number): void } }).fakeDiscord.reload(n), i);
      await app.getByTestId("join-table-blackjack").waitFor({ timeout: 30_000 });
    }

    // A seat at the shared blackjack table, each seen from the other's frame.
    await joinTableAndSit(a, 1);
    await joinTableAndSit(b, 2);
    await expect.poll(() => faceOf(seatFace(b, aliceId)), { timeout: 20_000 }).toEqual(alice);
    await expect.poll(() => faceOf(seatFace(a, bobId)), { timeout: 20_000 }).toEqual(bob);
    await shot(page, "faces-table-desktop");

    // Every avatar was asked of the activity's own origin under the mapped prefix, never of Discord's CDN.
    const avatarRequests = seen.filter((u) => u.pathname.includes("/avatars/"));
    expect(avatarRequests.map((u) => u.pathname)).toContain(`/discord-cdn/avatars/${ALICE}/abc123.png`);
    expect(avatarRequests.map((u) => u.pathname)).toContain(`/discord-cdn/avatars/${BOB}/abc123.png`);
    expect(avatarRequests.every((u) => u.origin === new URL(t.baseUrl).origin)).toBe(true);
    expect(seen.filter((u) => u.hostname.endsWith("discordapp.com"))).toEqual([]);
    await page.close();
  });

  it("is the player's, not the name's: two players named alike have two faces, each the same on every surface", async () => {
    const page = await browser.newPage({ viewport: { width: 2 * 1280 + 8, height: 1000 } });
    await page.goto(host.url(`${t.baseUrl}/`, { players: [`${SAM_ONE}:Sam`, `${SAM_TWO}:Sam`], instanceId: "i-faces-2" }));
    const [one, two] = [page.frameLocator("iframe").nth(0), page.frameLocator("iframe").nth(1)];
    await Promise.all([acceptTerms(one), acceptTerms(two)]);
    const [oneId, twoId] = await Promise.all([playerId(SAM_ONE), playerId(SAM_TWO)]);
    const seedOf = (avatar: Locator) => avatar.getAttribute("data-seed");
    // The seed is the server's one rule for the player (a short hash, not their id), the same for both viewers.
    const expected = new Map([
      [oneId, serverFace(oneId)],
      [twoId, serverFace(twoId)],
    ]);
    expect(expected.get(oneId)).not.toBe(expected.get(twoId));
    for (const id of [oneId, twoId]) expect(expected.get(id)).not.toContain(id);

    // The strip: in each frame, the player themself and the other Sam.
    const strip = (app: FrameLocator, self: boolean) =>
      app
        .locator(`[data-testid="together-member"]${self ? "[data-self]" : ":not([data-self])"}`)
        .filter({ hasText: "Sam" })
        .getByTestId("avatar");
    for (const [app, me, other] of [
      [one, oneId, twoId],
      [two, twoId, oneId],
    ] as const) {
      await expect.poll(() => seedOf(strip(app, true)), { timeout: 20_000 }).toBe(expected.get(me));
      await expect.poll(() => seedOf(strip(app, false)), { timeout: 20_000 }).toBe(expected.get(other));
    }
    const drawn = { one: await faceOf(strip(one, true)), two: await faceOf(strip(one, false)) };
    expect(drawn.one.svg).toContain("<svg");
    expect(drawn.one.svg).not.toBe(drawn.two.svg);
    await expect.poll(() => faceOf(strip(two, false)), { timeout: 20_000 }).toEqual(drawn.one);

    // The leaderboard: the player's own row and the other Sam's.
    await one.getByRole("tab", { name: /Leaderboard|Ranks/ }).click();
    const board = one.getByRole("list", { name: "Balance leaderboard" }).getByTestId("leaderboard-row").filter({ hasText: "Sam" });
    await expect
      .poll(() => seedOf(board.and(one.locator('[aria-current="true"]')).getByTestId("avatar")), { timeout: 20_000 })
      .toBe(expected.get(oneId));
    await expect
      .poll(() => seedOf(board.and(one.locator(':not([aria-current="true"])')).getByTestId("avatar")), { timeout: 20_000 })
      .toBe(expected.get(twoId));
    await expect.poll(() => faceOf(board.and(one.locator(':not([aria-current="true"])')).getByTestId("avatar"))).toEqual(drawn.two);

    // The shared crash room's bets, each seen from the other's frame.
    await one.getByRole("tab", { name: /Games|Play/ }).click();
    for (const [app, amount] of [
      [one, 10],
      [two, 20],
    ] as const)
      await betInCrashRoom(app, amount);
    await expect.poll(() => seedOf(crashBetFace(two, oneId)), { timeout: 20_000 }).toBe(expected.get(oneId));
    await expect.poll(() => seedOf(crashBetFace(one, twoId)), { timeout: 20_000 }).toBe(expected.get(twoId));
    await expect.poll(() => faceOf(crashBetFace(one, twoId))).toEqual(drawn.two);
    await page.close();
  });

  it("draws well on a phone and a desktop, dark and light", async () => {
    const seen: URL[] = [];
    const page = await openHost([`${CAROL}:Carol`], PHONE, seen);
    const c = page.frameLocator("iframe").first();
    await acceptTerms(c);
    await expect.poll(async () => (await faceOf(stripFace(c, "Carol"))).face, { timeout: 20_000 }).toBe("generated");
    await pictures(page, c, "phone");
    await page.setViewportSize(DESKTOP);
    await pictures(page, c, "desktop");
    await page.close();
  });
});
