import { describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { crashReachedAtMs } from "@casino/common";
import { ManualClock } from "../../server/src/platform/clock";
import type { FrameLocator, Page } from "playwright-core";
import { ARTIFACTS } from "./support";
import { history, serverBalance, type HistoryRow } from "./games-helpers";
import { acceptTerms } from "./fake-discord-host";
import { setupBrowserApp } from "./browser-app";

/**
 * The shared crash room in real Chromium: players launched by the fake Discord host in one activity
 * instance play the same rounds and see each other's bets; a player of another instance plays in
 * another room. Every coin is checked against the server's record (REST).
 *
 * The rooms run on a ManualClock: a phase lasts until the test moves the clock past it, so the players
 * bet at their own pace, Alice cashes out at a multiplier below the round's crash point (read in the
 * database, the test's secret), and the bust stays on both tables until the test moves on.
 */
const clock = new ManualClock(Date.now());
const CRASH_ENV = {
  // Phases far longer than the test takes to act in them: only the test's advance ends one.
  CRASH_BETTING_MS: "60000",
  CRASH_BUSTED_MS: "60000",
  CRASH_TICK_MS: "50",
  CRASH_CURVE_RATE: "0.0004",
};
const RATE = Number(CRASH_ENV.CRASH_CURVE_RATE);

const { server: t, browser, host } = setupBrowserApp({ discordHost: true, clock, env: CRASH_ENV });

const crashPointOf = async (round: string) =>
  Number((await t.app.services.db.run((em) => em.query(`SELECT crash_point FROM crash_rounds WHERE id = $1`, [round])))[0].crash_point);

interface Player {
  name: string;
  app: FrameLocator;
  session(): Promise<{ playerId: string; token: string }>;
}

/** A host page with these players in one instance; each player's session is read from its own sign-in. */
async function openInstance(players: string[], instanceId: string): Promise<{ page: Page; players: Player[] }> {
  const page = await browser.newPage({ viewport: { width: 2100, height: 1300 } });
  const sessions = new Map<string, Promise<{ playerId: string; token: string }>>();
  const waiters = new Map<string, (s: { playerId: string; token: string }) => void>();
  for (const p of players) {
    const name = p.split(":")[1]!;
    sessions.set(name, new Promise((resolve) => waiters.set(name, resolve)));
  }
  page.on("response", async (r) => {
    if (!r.url().endsWith("/api/token") || r.request().method() !== "POST") return;
    const body = (await r.json()) as {
      session_token: string;
      player: { id: string; username: string };
      instance?: { instanceId: string } | null;
    };
    expect(body.instance?.instanceId).toBe(instanceId);
    waiters.get(body.player.username)?.({ playerId: body.player.id, token: body.session_token });
  });
  await page.goto(host.url(`${t.baseUrl}/`, { players, instanceId }));
  return {
    page,
    players: players.map((p, i) => {
      const name = p.split(":")[1]!;
      return { name, app: page.frameLocator("iframe").nth(i), session: () => sessions.get(name)! };
    }),
  };
}

/** From the lobby's crash tile to the shared room. */
async function playTogether(app: FrameLocator) {
  await acceptTerms(app);
  await app.getByTestId("game-tile-crash").getByRole("button", { name: "Play Now" }).click();
  await app.locator('[data-testid="crash-room"]:not([data-phase="connecting"])').waitFor({ timeout: 20_000 });
}

const room = (app: FrameLocator) => app.getByTestId("crash-room");
/** What a table shows at one moment: its phase and round and every bet row, read in one step in the page. */
interface TableView {
  phase: string | null;
  round: string | null;
  bets: Record<string, { status: string | null; outcome: string }>;
}
const viewOf = (app: FrameLocator): Promise<TableView> =>
  room(app).evaluate((el) => ({
    phase: el.getAttribute("data-phase"),
    round: el.getAttribute("data-round"),
    bets: Object.fromEntries(
      [...el.querySelectorAll('[data-testid="crash-room-bet"]')].map((row) => [
        row.getAttribute("data-player") ?? "",
        {
          status: row.getAttribute("data-status"),
          outcome: row.querySelector('[data-testid="crash-room-bet-outcome"]')?.textContent ?? "",
        },
      ]),
    ),
  }));
/** A table's phase and round, read together. */
const phaseOf = async (app: FrameLocator) => {
  const { phase, round } = await viewOf(app);
  return { phase, round };
};
const betRow = (app: FrameLocator, playerId: string) => app.locator(`[data-testid="crash-room-bet"][data-player="${playerId}"]`);
const shownBalance = async (app: FrameLocator) => Number(((await app.getByTestId("balance").textContent()) ?? "").replace(/[^\d-]/g, ""));
const crashRows = async (baseUrl: string, s: { playerId: string; token: string }) =>
  (await history(baseUrl, s)).filter((r: HistoryRow) => r.gameType === "crash");

/** Waits until a table shows the bust of `round` (it stays until the clock moves on) and returns what it shows. */
async function bustOf(app: FrameLocator, round: string): Promise<TableView> {
  await app.locator(`[data-testid="crash-room"][data-round="${round}"][data-phase="busted"]`).waitFor({ timeout: 20_000 });
  return viewOf(app);
}

/** Places a bet from the panel; a failure says what the panel showed (for the test's message). */
async function placeBet(app: FrameLocator, amount: number) {
  const input = app.getByRole("textbox", { name: "Bet amount" });
  try {
    await input.fill(String(amount), { timeout: 3_000 });
    await expect.poll(() => input.inputValue()).toBe(String(amount));
    await app.getByRole("button", { name: "Place bet" }).click({ timeout: 3_000 });
  } catch (error) {
    const panel = await app
      .getByTestId("crash-room-panel")
      .innerText({ timeout: 1_000 })
      .catch(() => "(no panel)");
    const phase = await phaseOf(app).catch(() => null);
    throw new Error(`${String(error).split("\n")[0]}; phase ${JSON.stringify(phase)}; the panel showed: ${panel.replace(/\s+/g, " ")}`, {
      cause: error,
    });
  }
}

describe("the shared crash room", () => {
  it("two players of one instance share a round and see each other's bets; one cashes out, the other busts; another instance is another room", async () => {
    const shared = await openInstance(["100000000000000031:Alice", "100000000000000032:Bob"], "i-crash-shared");
    const [alice, bob] = shared.players as [Player, Player];
    const other = await openInstance(["100000000000000033:Erin"], "i-crash-other");
    const [erin] = other.players as [Player];
    await Promise.all([playTogether(alice.app), playTogether(bob.app), playTogether(erin.app)]);
    // Alice and Bob's page in front: the page opened last would otherwise have it.
    await shared.page.bringToFront();
    const [a, b, e] = await Promise.all([alice.session(), bob.session(), erin.session()]);

    // One room per instance: Alice and Bob in one, Erin in another, each with its own chain.
    const roomOf = (instanceId: string) => matchMaker.query({ name: "crash", instanceId } as object);
    expect((await roomOf("i-crash-shared")).map((r) => r.clients)).toEqual([2]);
    expect((await roomOf("i-crash-other")).map((r) => r.clients)).toEqual([1]);
    const commitment = await alice.app.getByTestId("crash-room-commitment").textContent();
    expect(await bob.app.getByTestId("crash-room-commitment").textContent()).toBe(commitment);
    expect(await erin.app.getByTestId("crash-room-commitment").textContent()).not.toBe(commitment);

    // Rounds until one whose crash point leaves room for a cash-out (1 in 30 or so busts at once).
    let decided: { round: string; alicePayout: number; aliceAt: string } | null = null;
    let erinBet = false;
    let lastRound: string | null = null;
    let shotBetting = false;
    const undecided: string[] = [];
    for (let attempt = 0; attempt < 6 && !decided; attempt++) {
      // The betting phase after the last bust: it lasts until the clock moves.
      const fresh = lastRound ? `:not([data-round="${lastRound}"])` : "";
      await alice.app.locator(`[data-testid="crash-room"][data-phase="betting"]${fresh}`).waitFor({ timeout: 20_000 });
      const { round } = await phaseOf(alice.app);
      lastRound = round;
      // Alice's and Bob's frames share one page, and so its keyboard focus: one fills after the other.
      await Promise.all([placeBet(alice.app, 20).then(() => placeBet(bob.app, 30)), erinBet ? Promise.resolve() : placeBet(erin.app, 15)]);
      erinBet = true;
      // Each sees the other's bet in the same round.
      await Promise.all(
        [betRow(alice.app, b.playerId), betRow(bob.app, a.playerId), betRow(alice.app, a.playerId), betRow(bob.app, b.playerId)].map(
          (row) => row.waitFor({ timeout: 20_000 }),
        ),
      );
      expect((await phaseOf(bob.app)).round).toBe(round);
      expect(await betRow(bob.app, a.playerId).textContent()).toContain("20");
      expect(await betRow(alice.app, b.playerId).textContent()).toContain("30");
      if (!shotBetting) {
        shotBetting = true;
        await shared.page.screenshot({ path: `${ARTIFACTS}/crash-room-betting.png` });
      }

      // Betting closes; the run starts (or the round busts at once, at 1.00×). The clock stays still
      // until the page shows it: the run started at the clock's present.
      const crashPoint = await crashPointOf(round!);
      await clock.advance(Number(CRASH_ENV.CRASH_BETTING_MS));
      await alice.app
        .locator(`[data-testid="crash-room"][data-round="${round}"]:is([data-phase="running"], [data-phase="busted"])`)
        .waitFor({ timeout: 20_000 });
      if (crashPoint < 110) {
        await clock.advance(crashReachedAtMs(crashPoint, RATE));
        await Promise.all([bustOf(alice.app, round!), bustOf(bob.app, round!)]);
        undecided.push(`the round busted at ${crashPoint / 100}×, before a cash-out could land`);
        await clock.advance(Number(CRASH_ENV.CRASH_BUSTED_MS));
        continue;
      }
      // The run to a multiplier below the crash point, where Alice cashes out by hand; then to the bust.
      const target = Math.min(150, Math.floor((100 + crashPoint) / 2));
      await clock.advance(crashReachedAtMs(target, RATE));
      await alice.app.getByRole("button", { name: /^Cash out/ }).click();
      await bob.app
        .locator(`[data-testid="crash-room-bet"][data-player="${a.playerId}"][data-status="cashed_out"]`)
        .waitFor({ timeout: 20_000 });
      await clock.advance(crashReachedAtMs(crashPoint, RATE) - crashReachedAtMs(target, RATE));
      const [aliceSaw, bobSaw] = await Promise.all([bustOf(alice.app, round!), bustOf(bob.app, round!)]);
      // Both tables show the same outcome for each bet.
      expect(aliceSaw.bets[a.playerId]?.status).toBe("cashed_out");
      expect(bobSaw.bets[a.playerId]?.status).toBe("cashed_out");
      expect(aliceSaw.bets[b.playerId]?.status).toBe("lost");
      expect(bobSaw.bets[b.playerId]?.status).toBe("lost");
      // Erin's bets are never in this room, nor Alice's and Bob's in hers.
      expect(aliceSaw.bets[e.playerId]).toBeUndefined();
      const erinSees = await viewOf(erin.app);
      expect(erinSees.bets[a.playerId]).toBeUndefined();
      expect(erinSees.bets[b.playerId]).toBeUndefined();
      const outcome = bobSaw.bets[a.playerId]!.outcome;
      // the bet's net figure, and what was paid labelled as such
      const [, at, net, payout] = /^@ ([\d.]+)× ([+-]?[\d,]+), paid ([\d,]+)$/.exec(outcome)!;
      expect(Number(net!.replace(/,/g, ""))).toBe(Number(payout!.replace(/,/g, "")) - 20);
      expect(Number(at)).toBeLessThan(crashPoint / 100);
      decided = { round: round!, alicePayout: Number(payout!.replace(/,/g, "")), aliceAt: at! };
      await shared.page.screenshot({ path: `${ARTIFACTS}/crash-room-busted.png` });
      await room(bob.app).screenshot({ path: `${ARTIFACTS}/crash-room-bob.png` });
    }
    expect(decided, `a round in which Alice cashed out before the bust; the rounds tried: ${undecided.join("; ")}`).not.toBeNull();

    // The server's record: Alice's cash-out paid what both tables showed, Bob's bet paid nothing, and each
    // balance is the starting 1,000 plus what the crash rounds moved, in the header too.
    const [aliceRows, bobRows] = await Promise.all([crashRows(t.baseUrl, a), crashRows(t.baseUrl, b)]);
    expect(aliceRows[0]).toMatchObject({ betAmount: 20, payout: decided!.alicePayout });
    // 20 × the multiplier, made whole by rule 2: the coin below or the one above (re-derived exactly below)
    const exact = (20 * Math.round(Number(decided!.aliceAt) * 100)) / 100;
    expect([Math.floor(exact), Math.ceil(exact)]).toContain(decided!.alicePayout);
    expect(bobRows[0]).toMatchObject({ betAmount: 30, payout: 0 });
    expect(bobRows.every((r) => r.payout === 0)).toBe(true);
    for (const [player, session, rows] of [
      [alice, a, aliceRows],
      [bob, b, bobRows],
    ] as const) {
      const expected = 1000 + rows.reduce((sum, r) => sum + r.payout - r.betAmount, 0);
      expect(await serverBalance(t.baseUrl, session)).toBe(expected);
      await expect.poll(() => shownBalance(player.app), { timeout: 10_000 }).toBe(expected);
    }
    await t.expectLedgerInvariant();

    // The revealed hash of the decided game checks out against the commitment, in the page.
    await alice.app.locator(`[data-testid="crash-room-game"][data-round="${decided!.round}"]`).click();
    await expect.poll(() => alice.app.getByTestId("crash-room-rounding").textContent()).toContain("rule 2");
    await alice.app.getByRole("button", { name: "Verify this game" }).click();
    await expect
      .poll(() => alice.app.getByTestId("crash-room-verdict").textContent())
      .toMatch(/^Verified: hashing it (once|\d+ times) gives the commitment/);
    // and Alice's own cash-out re-derives from the revealed hash to what she was paid
    await expect
      .poll(() => alice.app.getByTestId("crash-room-cashout-check").textContent())
      .toMatch(
        new RegExp(`^Your cash-out: 20 × ${decided!.aliceAt.replace(".", "\\.")}× pays ${decided!.alicePayout} \\(.*\\): as paid\\.$`),
      );
    await room(alice.app).screenshot({ path: `${ARTIFACTS}/crash-room-verified.png` });
    await other.page.screenshot({ path: `${ARTIFACTS}/crash-room-other-instance.png` });
    await shared.page.close();
    await other.page.close();
  }, 120_000);
});
