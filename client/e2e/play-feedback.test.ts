import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { acceptTerms } from "./fake-discord-host";
import { formatCoins, formatNet, netCoinsText } from "@casino/common/format";
import { stakeOf } from "./games-cases";
import { openAsGuest, openGame, press, serverBalance, setAmount, settled, shownBalance, type Table } from "./games-helpers";
import { DESKTOP } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * Instant feedback without spoilers (issue 20, items 2 and 3), on the real server in Chromium: the stake
 * leaves the header balance when the server accepts the bet, and no gain shows there before the table
 * shows the round's result (dice: one step; roulette: a long reveal; blackjack: a round of several
 * steps); Turbo shows the result with the answer; the play settings persist on the device and, for a
 * Discord player, on the server; an auto-bet gives one summary instead of a toast and a sound a round.
 *
 * The page records every value the header shows, and whether the table's result was on screen then
 * (a MutationObserver, so no value is missed); each check is on that record, never on timings.
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, animations: true });

interface Shown {
  /** the header's balance */
  value: number;
  /** the change badge beside it ("10 staked", then the round's net figure "+9" or "-10"), if any */
  delta: string | null;
  /** whether the table's result was on screen */
  result: boolean;
}

/** Starts recording what the header shows, from now on (and keeps what it showed then, `__atStart`). */
async function watchHeader(page: Table): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __shown: Shown[]; __atStart: Shown; __watch?: MutationObserver };
    w.__watch?.disconnect();
    w.__shown = [];
    const read = () => ({
      value: Number((document.querySelector('[data-testid="balance"]')?.textContent ?? "").replace(/[^\d-]/g, "")),
      delta: document.querySelector('[data-testid="balance-delta"]')?.textContent ?? null,
      result: !!document.querySelector('[data-testid="round-result"]'),
    });
    w.__atStart = read();
    let last = JSON.stringify(w.__atStart);
    const watch = new MutationObserver(() => {
      const now = read();
      const key = JSON.stringify(now);
      if (key !== last) w.__shown.push(now);
      last = key;
    });
    watch.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    w.__watch = watch;
  });
}

const recorded = (page: Table) => page.evaluate(() => (window as unknown as { __shown: Shown[] }).__shown);
/** What the header showed when the recording started: the chip of the round before, if any. */
const atStart = (page: Table) => page.evaluate(() => (window as unknown as { __atStart: Shown }).__atStart);

/** The table's result as it shows it. */
async function result(page: Table) {
  const el = page.getByTestId("round-result");
  await el.waitFor({ timeout: 20_000 });
  return { stake: Number(await el.getAttribute("data-stake")), payout: Number(await el.getAttribute("data-payout")) };
}

/**
 * The checks of one round: before the table's result the header only goes down (from the balance
 * before, never above it) and shows no gain badge; it reaches the balance less the stake then when
 * `stakeSeen` (a round whose answer comes before its result); it ends on the server's balance.
 */
async function expectNoSpoiler(page: Table, before: number, stake: number, session: { playerId: string; token: string }, stakeSeen = true) {
  const { payout } = await result(page);
  const final = before - stake + payout;
  await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(final);
  expect(await serverBalance(t.baseUrl, session)).toBe(final);
  const shown = await recorded(page);
  const start = await atStart(page);
  const beforeResult = shown.filter((s) => !s.result);
  let previous = before;
  for (const s of beforeResult) {
    expect(s.value, JSON.stringify(shown)).toBeLessThanOrEqual(previous);
    // a stake may show ("10 staked"), this round's figure ("+9", "-10", "0") may not; the round before's
    // figure stays on the chip, at the balance before, until the stake leaves (its result gone with the bet)
    const roundBefore = s.value === before && s.delta === start.delta;
    if (!roundBefore) expect(s.delta ?? "", JSON.stringify(shown)).not.toMatch(/^([+-]|0$)/);
    previous = s.value;
  }
  if (stakeSeen) expect(beforeResult.map((s) => s.value)).toContain(before - stake);
  return { payout, shown };
}

/** The first value the header showed other than `before`. */
const firstMove = (shown: Shown[], before: number) => shown.find((s) => s.value !== before);

describe("the header balance tells no outcome before the table", () => {
  it("dice: the stake leaves at acceptance, the payout arrives with the shown result", { timeout: 120_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await openGame(page, "dice");
      const stake = stakeOf({ id: "dice", amount: 100 });
      await setAmount(page, stake);
      await page.getByTestId("dice-target").fill("98"); // 98 % to win: a gain to withhold almost every time
      let wins = 0;
      for (let i = 0; i < 3 && wins === 0; i++) {
        const before = await shownBalance(page);
        await watchHeader(page);
        await press(page, "bet-button");
        const { payout, shown } = await expectNoSpoiler(page, before, stake, await session());
        // the header moves first with the stake leaving it, under its "staked" badge, before the result shows
        expect(firstMove(shown, before)).toMatchObject({ result: false });
        expect(firstMove(shown, before)!.delta).toBe(`${formatCoins(stake)} staked`);
        // then the round's net figure, the toast's, never the payout
        expect(shown.some((s) => s.result && s.delta === formatNet(payout - stake))).toBe(true);
        if (payout > stake) wins += 1;
        await settled(page);
      }
      expect(wins).toBe(1);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });

  it("roulette: nothing comes back to the header while the wheel spins", { timeout: 120_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await openGame(page, "roulette");
      const chip = stakeOf({ id: "roulette", amount: 5 });
      await setAmount(page, chip);
      // red and black: one of them pays on 36 pockets of 37
      await page.getByTestId("roulette-red").click();
      await page.getByTestId("roulette-black").click();
      const before = await shownBalance(page);
      await watchHeader(page);
      await press(page, "bet-button");
      const { shown } = await expectNoSpoiler(page, before, 2 * chip, await session());
      expect(firstMove(shown, before)).toMatchObject({ result: false });
      // the ball comes to rest in the pocket the round landed on
      const landed = Number(await page.getByTestId("roulette-pocket").getAttribute("data-value"));
      const pocketUnderBall = () =>
        page.evaluate(() => {
          const ball = document.querySelector('[data-testid="roulette-ball"]')!.getBoundingClientRect();
          const under = document.elementsFromPoint(ball.left + ball.width / 2, ball.top + ball.height / 2);
          return Number(
            under
              .map((el) => el.closest("[data-pocket]"))
              .find(Boolean)
              ?.getAttribute("data-pocket") ?? -1,
          );
        });
      await expect.poll(pocketUnderBall, { timeout: 10_000 }).toBe(landed);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });

  it("blackjack: the stake leaves when the hand is dealt, the payout comes with the dealer's last card", { timeout: 120_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await openGame(page, "blackjack");
      const stake = stakeOf({ id: "blackjack", amount: 10 });
      await setAmount(page, stake);
      const before = await shownBalance(page);
      await watchHeader(page);
      await press(page, "bet-button");
      if ((await page.getByTestId("bet-panel").getAttribute("data-locked")) === "true") {
        // the hand is open: the stake has left the header already
        await expect.poll(() => shownBalance(page)).toBe(before - stake);
        for (const id of ["bj-insurance-decline", "bj-stand"]) {
          const button = page.getByTestId(id);
          if ((await button.count()) > 0 && (await button.isEnabled())) await press(page, id);
        }
      }
      await expectNoSpoiler(page, before, stake, await session(), false);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});

describe("pushed toasts", () => {
  it("the first game's tag toast waits until the table has shown the round's result", { timeout: 120_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await openGame(page, "roulette");
      // every toast as it appears, and whether the table's result was on screen then
      await page.evaluate(() => {
        const w = window as unknown as { __toastsSeen: { text: string; result: boolean }[] };
        w.__toastsSeen = [];
        new MutationObserver(() => {
          for (const el of document.querySelectorAll('[data-testid="toast"]:not([data-seen])')) {
            el.setAttribute("data-seen", "");
            w.__toastsSeen.push({ text: el.textContent ?? "", result: !!document.querySelector('[data-testid="round-result"]') });
          }
        }).observe(document.body, { subtree: true, childList: true });
      });
      await setAmount(page, stakeOf({ id: "roulette", amount: 5 }));
      await page.getByTestId("roulette-red").click();
      await press(page, "bet-button");
      await result(page);
      const tag = page.getByTestId("toast").filter({ hasText: "Tag Unlocked!" });
      await tag.waitFor({ timeout: 20_000 });
      const seen = await page.evaluate(() => (window as unknown as { __toastsSeen: { text: string; result: boolean }[] }).__toastsSeen);
      const tagToast = seen.find((x) => x.text.includes("Tag Unlocked!"));
      expect(tagToast, JSON.stringify(seen)).toMatchObject({ result: true });
      expect(tagToast!.text).toContain("Newcomer");
      // and it did not replace the round's own toast: that one came first
      const roundToast = seen.findIndex((x) => /You won!|Better luck next time/.test(x.text));
      expect(roundToast).toBeGreaterThanOrEqual(0);
      expect(roundToast).toBeLessThan(seen.indexOf(tagToast!));
    } finally {
      await context.close();
    }
  });
});

describe("turbo", () => {
  it("shows the result with the server's answer, and stays on for this device", { timeout: 120_000 }, async () => {
    const { context, page, session } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await openGame(page, "roulette");
      const toggle = page.getByTestId("turbo-toggle");
      expect(await toggle.getAttribute("aria-checked")).toBe("false");
      await toggle.click();
      await page.reload();
      await openGame(page, "roulette");
      expect(await page.getByTestId("turbo-toggle").getAttribute("aria-checked")).toBe("true");

      const chip = stakeOf({ id: "roulette", amount: 5 });
      await setAmount(page, chip);
      await page.getByTestId("roulette-red").click();
      const before = await shownBalance(page);
      await watchHeader(page);
      await press(page, "bet-button");
      const { payout } = await result(page);
      await expect.poll(() => shownBalance(page), { timeout: 10_000 }).toBe(before - chip + payout);
      expect(await serverBalance(t.baseUrl, await session())).toBe(before - chip + payout);
      // the wheel did not spin first: the result was on the table when the header first moved
      const shown = await recorded(page);
      expect(firstMove(shown, before)?.result).toBe(true);
      expect(await page.evaluate(() => document.documentElement.classList.contains("fast-reveal"))).toBe(true);
    } finally {
      await context.close();
    }
  });
});

/** Counts the sounds the page plays (every one goes through HTMLMediaElement.play) and the toasts it shows. */
async function countSoundsAndToasts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __sounds: string[]; __toasts: string[] };
    w.__sounds = [];
    w.__toasts = [];
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      w.__sounds.push(`${this.src.split("/").pop()}@${this.volume.toFixed(3)}`);
      return Promise.resolve();
    };
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="toast"]:not([data-counted])')) {
        el.setAttribute("data-counted", "");
        w.__toasts.push(el.textContent ?? "");
      }
    }).observe(document, { subtree: true, childList: true });
  });
}
const soundsAndToasts = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __sounds: string[]; __toasts: string[] };
    return { sounds: w.__sounds, toasts: w.__toasts };
  });

describe("auto-bet", () => {
  it("gives no toast or sound a round, and one summary when it stops", { timeout: 180_000 }, async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.addInitScript(() => localStorage.setItem("guest-notice-dismissed", "true"));
    const page = await context.newPage();
    await countSoundsAndToasts(page);
    const guest = page.waitForResponse((r) => r.url().endsWith("/api/guest"));
    await page.goto(t.baseUrl);
    const { player, session_token: token } = (await (await guest).json()) as { player: { id: string }; session_token: string };
    try {
      const notice = page.getByRole("button", { name: "Got it, Continue as Guest" });
      if (await notice.isVisible({ timeout: 5_000 }).catch(() => false)) await notice.click();
      await openGame(page, "dice");
      await setAmount(page, stakeOf({ id: "dice", amount: 10 }));
      await page.getByTestId("dice-target").fill("50");
      await page.getByTestId("mode-auto").click();
      await page.getByTestId("auto-count").fill("6");
      await page.getByTestId("auto-start").click();
      await page.getByTestId("auto-status").waitFor({ timeout: 120_000 });
      await settled(page);
      expect(await page.getByTestId("auto-status").textContent()).toBe("Stopped: 6 bets placed");
      const toast = page.getByTestId("toast").filter({ hasText: "Autobet finished" });
      await toast.waitFor({ timeout: 10_000 });
      const played = Number(await page.getByTestId("auto-played").textContent());
      expect(played).toBe(6);
      const balance = await serverBalance(t.baseUrl, { playerId: player.id, token });
      const net = balance - 1000;
      const text = await toast.textContent();
      expect(text).toContain(`6 bets, net ${netCoinsText(net)}.`);
      const { sounds, toasts } = await soundsAndToasts(page);
      expect(toasts.filter((x) => /You won!|Better luck next time/.test(x))).toEqual([]);
      expect(toasts.filter((x) => x.includes("Autobet finished"))).toHaveLength(1);
      // the lobby tile's click, then only the summary's own sound (none when the run broke even)
      expect(sounds.filter((x) => !x.startsWith("click.wav"))).toEqual(net > 0 ? ["win.wav@0.500"] : net < 0 ? ["lose.wav@0.500"] : []);
    } finally {
      await context.close();
    }
    await t.expectLedgerInvariant();
  });
});

/** Moves a range input as a drag would (React hears the input event). */
async function setRange(page: Page, testId: string, value: number): Promise<void> {
  await page.getByTestId(testId).evaluate((el, v) => {
    const input = el as HTMLInputElement;
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, String(v));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }, value);
}

describe("play settings", () => {
  it("a guest's sound, volume and animations stay on the device over a reload, and are obeyed", { timeout: 120_000 }, async () => {
    const { context, page } = await openAsGuest(browser, t.baseUrl, DESKTOP);
    try {
      await countSoundsAndToasts(page);
      await page.goto(`${t.baseUrl}/settings`);
      const sound = page.getByRole("switch", { name: "Sound" });
      const animations = page.getByRole("switch", { name: "Animations" });
      await sound.waitFor({ timeout: 20_000 });
      expect(await sound.getAttribute("aria-checked")).toBe("true");
      await setRange(page, "settings-volume", 40);
      await animations.click();
      await page.reload();
      await sound.waitFor({ timeout: 20_000 });
      expect(await animations.getAttribute("aria-checked")).toBe("false");
      expect(await page.getByTestId("settings-volume").inputValue()).toBe("40");
      expect(await page.evaluate(() => document.documentElement.classList.contains("no-motion"))).toBe(true);

      // the volume scales the spec's 0.3 click sound
      await page.getByRole("button", { name: "Back" }).click();
      await page.getByTestId("game-tile-dice").getByRole("button", { name: "Play Now" }).click();
      await page.getByTestId("table-dice").waitFor();
      expect((await soundsAndToasts(page)).sounds).toEqual(["click.wav@0.120"]);

      // with sound off, a round plays none
      await page.goto(`${t.baseUrl}/settings`);
      await sound.click();
      await page.reload();
      await sound.waitFor({ timeout: 20_000 });
      expect(await sound.getAttribute("aria-checked")).toBe("false");
      await page.goto(t.baseUrl);
      await openGame(page, "dice");
      await press(page, "bet-button");
      await result(page);
      // the guest's first round: its own toast, then the Newcomer tag's (each plays a sound when sound is on)
      await page.getByTestId("toast").filter({ hasText: "Tag Unlocked!" }).waitFor({ timeout: 20_000 });
      expect((await soundsAndToasts(page)).toasts.length).toBeGreaterThanOrEqual(2);
      expect((await soundsAndToasts(page)).sounds).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("a Discord player's settings are saved on the server and follow them to another device", { timeout: 150_000 }, async () => {
    const discord = "200000000000000777:Sonia";
    /** The activity on a new device; the terms are met on the first launch only (the server keeps the acceptance). */
    const open = async (firstLaunch: boolean) => {
      const page: Page = await browser.newPage({ viewport: DESKTOP }); // a new context: an empty storage
      const token = page.waitForResponse((r) => r.url().endsWith("/api/token") && r.request().method() === "POST", { timeout: 30_000 });
      await page.goto(host.url(`${t.baseUrl}/`, { players: [discord] }));
      const body = (await (await token).json()) as { session_token: string; player: { id: string } };
      if (firstLaunch) await acceptTerms(page.frameLocator("iframe").first());
      const frame: Frame = (await (await page.$("iframe"))!.contentFrame())!;
      await frame.getByTestId("lobby-heading").waitFor({ timeout: 20_000 });
      expect(await frame.getByRole("dialog", { name: "Updated Terms & Privacy Policy" }).count()).toBe(0);
      await frame.getByRole("link", { name: "Settings" }).click();
      await frame.getByRole("switch", { name: "Sound" }).waitFor({ timeout: 20_000 });
      return { page, frame, session: { playerId: body.player.id, token: body.session_token } };
    };

    const first = await open(true);
    try {
      const saved = first.page.waitForResponse((r) => r.url().endsWith("/api/player/settings") && r.request().method() === "PATCH");
      await first.frame.getByRole("switch", { name: "Sound" }).click();
      expect((await saved).status()).toBe(200);
      const savedAgain = first.page.waitForResponse((r) => r.url().endsWith("/api/player/settings") && r.request().method() === "PATCH");
      await first.frame.getByRole("switch", { name: "Animations" }).click();
      expect((await savedAgain).status()).toBe(200);
      const res = await fetch(`${t.baseUrl}/api/player/${first.session.playerId}`, {
        headers: { authorization: `Bearer ${first.session.token}` },
      });
      expect(await res.json()).toMatchObject({ soundOn: false, animationsOn: false, soundVolume: 100 });
    } finally {
      await first.page.close();
    }

    const second = await open(false);
    try {
      expect(await second.frame.getByRole("switch", { name: "Sound" }).getAttribute("aria-checked")).toBe("false");
      expect(await second.frame.getByRole("switch", { name: "Animations" }).getAttribute("aria-checked")).toBe("false");
    } finally {
      await second.page.close();
    }
  });
});
