import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { HOLDEM_TABLE_CONFIG } from "@casino/common/holdem-table";
import { ManualClock } from "../../server/src/platform/clock";
import { balanceOf, type Query } from "../../server/test/holdem-helpers";
import { acceptTerms, frameOf } from "./fake-discord-host";
import { setupBrowserApp } from "./browser-app";
import { attr, holdemPlay, leaks, openTable, watchForLeaks } from "./holdem-frames";

/**
 * A player whose connection drops in the middle of a hand, through the browser: three members of a
 * fake-Discord instance seated at its Hold'em table and a fourth watching, against the real server on
 * PostgreSQL, on a ManualClock. The player to act closes the activity (their frame leaves it): the
 * others see the seat away, the table checks or folds for it at once whenever its turn comes (nobody
 * waits for its timer), and the hand is played to its end. Back within the grace, the player has the
 * same seat with the stack the database holds and no coin moved; when the grace runs out instead, the
 * seat is leaving (still checked for at once, even once the player is back before the hand's end) and
 * is released when the hand is over, its stack back to the balance.
 */
const clock = new ManualClock(Date.now());
const { server: t, browser, host } = setupBrowserApp({ discordHost: true, clock, timeout: 120_000 });

const sql: Query = (text, params = []) => t.app.services.db.run((em) => em.query(text, params)) as Promise<any[]>;

const INSTANCE = "i-holdem-drop";
const IDS = { kay: "300000000000000071", lee: "300000000000000072", nia: "300000000000000073", mo: "300000000000000074" };
const BUY_INS: Record<number, number> = { 1: 200, 2: 150, 3: 100 };

/** The player's seat at the instance's table as the database holds it (null when none is live). */
async function seatRow(playerId: string): Promise<{ id: string; seat: number; stack: number } | null> {
  const rows = await sql(
    `SELECT s.id, s.seat, s.stack FROM holdem_seats s JOIN holdem_tables t ON t.id = s.table_id
      WHERE t.scope = $1 AND s.player_id = $2 AND s.left_at IS NULL`,
    [`instance:${INSTANCE}`, playerId],
  );
  return rows[0] ? { id: rows[0].id, seat: Number(rows[0].seat), stack: Number(rows[0].stack) } : null;
}

/** Hand `n`'s recorded actions, once its result is written. */
async function actionsOf(n: number): Promise<unknown[] | null> {
  const rows = await sql(
    `SELECT h.actions FROM holdem_hands h JOIN holdem_tables t ON t.id = h.table_id
      WHERE t.scope = $1 AND h.hand_number = $2 AND h.phase = 'complete'`,
    [`instance:${INSTANCE}`, n],
  );
  return rows[0]?.actions ?? null;
}

/** The status line the seat shows on a page ("folded, away", "leaving"…) with its name and stack. */
const seatText = (frame: Frame, seat: number) => frame.getByTestId(`holdem-seat-${seat}`).textContent();

type FakeDiscord = { fakeDiscord: { unload(i: number): void; reload(i: number): void } };
/** The ith player closes the activity (the frame leaves it): their connection to the table drops. */
const unload = (page: Page, i: number) => page.evaluate((n) => (window as unknown as FakeDiscord).fakeDiscord.unload(n), i);
/** The ith player opens the activity again and goes back to the table. */
async function comeBack(page: Page, i: number): Promise<Frame> {
  await page.evaluate((n) => (window as unknown as FakeDiscord).fakeDiscord.reload(n), i);
  const frame = await frameOf(page, i);
  await frame.getByTestId("lobby-heading").waitFor({ timeout: 30_000 });
  await openTable(frame);
  return frame;
}

describe("a player dropped in the middle of a hand at the activity's Hold'em table", () => {
  it(
    "is checked or folded at once, keeps the seat and stack when back within the grace, and is cashed out when the grace runs out",
    { timeout: 150_000 },
    async () => {
      const page = await (await browser.newContext({ viewport: { width: 4 * 1000 + 24, height: 900 } })).newPage();
      const players = Object.entries(IDS).map(([name, id]) => `${id}:${name[0]!.toUpperCase()}${name.slice(1)}`);
      await page.goto(host.url(`${t.baseUrl}/`, { players, instanceId: INSTANCE }));
      await Promise.all([0, 1, 2, 3].map((i) => acceptTerms(page.frameLocator("iframe").nth(i))));
      const [kay, lee, nia, mo] = (await Promise.all([0, 1, 2, 3].map((i) => frameOf(page, i)))) as [Frame, Frame, Frame, Frame];
      for (const frame of [kay, lee, nia, mo]) await frame.getByTestId("lobby-heading").waitFor({ timeout: 30_000 });
      const [kayId] = (await sql(`SELECT id FROM players WHERE discord_id = $1`, [IDS.kay])).map((r) => r.id as string);
      const kayBalance = await balanceOf(sql, kayId!);

      // Everyone opens the table; Kay, Lee and Nia buy in at seats 1, 2 and 3, Mo watches.
      for (const frame of [kay, lee, nia, mo]) await openTable(frame);
      for (const [i, frame] of [kay, lee, nia].entries()) {
        await frame.getByTestId("holdem-buy-in").fill(String(BUY_INS[i + 1]));
        await frame.getByTestId(`holdem-sit-${i + 1}`).click();
        await expect.poll(() => attr(frame, "data-my-seat"), { timeout: 15_000 }).toBe(String(i + 1));
      }
      expect(await balanceOf(sql, kayId!)).toBe(kayBalance - BUY_INS[1]!);
      const bought = (await seatRow(kayId!))!;
      expect(bought).toMatchObject({ seat: 1, stack: BUY_INS[1] });

      const bySeat: Record<number, Frame> = { 1: kay, 2: lee, 3: nia };
      let present: Frame[] = [kay, lee, nia, mo];
      for (const frame of present) await watchForLeaks(frame);
      const { deal, press, checkDown } = holdemPlay(clock, mo, bySeat, () => present);
      const others = [lee, nia, mo];

      /** After a hand: every page still open shows the stacks the database holds. */
      const stacksShown = async () => {
        const rows = await sql(
          `SELECT s.seat, s.stack FROM holdem_seats s JOIN holdem_tables t ON t.id = s.table_id WHERE t.scope = $1 AND s.left_at IS NULL`,
          [`instance:${INSTANCE}`],
        );
        for (const frame of present)
          for (const row of rows)
            await expect
              .poll(() => frame.getByTestId(`holdem-seat-${row.seat}`).getAttribute("data-stack"), { timeout: 15_000 })
              .toBe(String(row.stack));
        return Object.fromEntries(rows.map((r) => [Number(r.seat), Number(r.stack)]));
      };

      // Hand 1 (button 1): Kay is first to act, and her connection drops before she does.
      await deal(1);
      expect(await attr(mo, "data-to-act")).toBe("1");
      await expect.poll(() => attr(kay, "data-my-turn"), { timeout: 15_000 }).toBe("true");
      const droppedAt = clock.now();
      await unload(page, 0);
      present = [lee, nia, mo];
      // The others see her seat away, folded for her at once: the turn is Lee's without the clock moving.
      for (const frame of others) await expect.poll(() => seatText(frame, 1), { timeout: 15_000 }).toContain("away");
      for (const frame of others)
        await expect.poll(() => frame.getByTestId("holdem-seat-1").getAttribute("data-folded"), { timeout: 15_000 }).toBe("true");
      await expect.poll(() => attr(mo, "data-to-act"), { timeout: 15_000 }).toBe("2");
      expect(clock.now()).toBe(droppedAt);
      // Lee and Nia play the hand to its end.
      await checkDown();
      await expect.poll(() => actionsOf(1), { timeout: 15_000 }).not.toBeNull();
      expect((await actionsOf(1))![0]).toEqual({ seat: 1, street: "preflop", action: { type: "fold" }, auto: "away" });
      const afterOne = await stacksShown();
      expect(afterOne[1]).toBe(BUY_INS[1]);
      expect(afterOne[1]! + afterOne[2]! + afterOne[3]!).toBe(450);

      // Kay comes back within the grace (the clock still on the pause after the hand): her seat, her stack.
      expect(clock.now() - droppedAt).toBeLessThan(HOLDEM_TABLE_CONFIG.graceMs);
      const kayAgain = await comeBack(page, 0);
      await expect.poll(() => attr(kayAgain, "data-my-seat"), { timeout: 15_000 }).toBe("1");
      expect(await seatRow(kayId!)).toEqual(bought);
      await expect
        .poll(() => kayAgain.getByTestId("holdem-seat-1").getAttribute("data-stack"), { timeout: 15_000 })
        .toBe(String(bought.stack));
      for (const frame of others) await expect.poll(() => seatText(frame, 1), { timeout: 15_000 }).not.toContain("away");
      // No coin moved for her: no cash-out, and the balance is the one her buy-in left.
      expect(await balanceOf(sql, kayId!)).toBe(kayBalance - BUY_INS[1]!);
      expect(await sql(`SELECT 1 FROM ledger_entries WHERE player_id = $1 AND reason = 'cash_out'`, [kayId])).toEqual([]);
      await t.expectLedgerInvariant();
      bySeat[1] = kayAgain;
      present = [kayAgain, lee, nia, mo];
      await watchForLeaks(kayAgain);

      // Hand 2 (button 2, Kay the big blind): Lee and Nia call, and Kay's connection drops on her turn.
      await deal(2);
      expect(await press("holdem-call")).toBe(2);
      expect(await press("holdem-call")).toBe(3);
      expect(await attr(mo, "data-to-act")).toBe("1");
      await expect.poll(() => attr(kayAgain, "data-my-turn"), { timeout: 15_000 }).toBe("true");
      const droppedAgainAt = clock.now();
      await unload(page, 0);
      present = [lee, nia, mo];
      // Checked for her at once (the big blind's option): the flop is dealt, Nia to act.
      for (const frame of others) await expect.poll(() => seatText(frame, 1), { timeout: 15_000 }).toContain("away");
      await expect.poll(() => attr(mo, "data-street"), { timeout: 15_000 }).toBe("flop");
      await expect.poll(() => attr(mo, "data-to-act"), { timeout: 15_000 }).toBe("3");
      // Nobody presses anything until the grace has run out: Nia's time runs out (checked for her), Kay's
      // turn is checked at once again, and Kay's seat is leaving; Lee's turn has not run out.
      await clock.advance(droppedAgainAt + HOLDEM_TABLE_CONFIG.graceMs - clock.now());
      for (const frame of others) await expect.poll(() => seatText(frame, 1), { timeout: 15_000 }).toContain("leaving");
      await expect.poll(() => attr(mo, "data-to-act"), { timeout: 15_000 }).toBe("2");
      expect(await attr(mo, "data-street")).toBe("flop");
      // The seat stays until the hand is over: its chips are in it.
      expect((await seatRow(kayId!))?.id).toBe(bought.id);
      // Kay opens the activity again before the hand is over: the seat is still hers, back online, but it
      // is leaving, so the hand goes on checking for her at once (her turn never comes back to her page).
      const kayLate = await comeBack(page, 0);
      await watchForLeaks(kayLate);
      await expect.poll(() => attr(kayLate, "data-my-seat"), { timeout: 15_000 }).toBe("1");
      for (const frame of others) await expect.poll(() => seatText(frame, 1), { timeout: 15_000 }).not.toContain("away");
      expect(await seatText(mo, 1)).toContain("leaving");
      present = [kayLate, lee, nia, mo];
      await checkDown();
      await expect.poll(() => actionsOf(2), { timeout: 15_000 }).not.toBeNull();
      const actions = (await actionsOf(2)) as { seat: number; street: string }[];
      expect(actions.slice(0, 5)).toEqual([
        { seat: 2, street: "preflop", action: { type: "call" }, auto: null },
        { seat: 3, street: "preflop", action: { type: "call" }, auto: null },
        { seat: 1, street: "preflop", action: { type: "check" }, auto: "away" },
        { seat: 3, street: "flop", action: { type: "check" }, auto: "timeout" },
        { seat: 1, street: "flop", action: { type: "check" }, auto: "away" },
      ]);
      expect(actions.filter((a) => a.seat === 1).map((a) => [a.street, a])).toEqual(
        ["preflop", "flop", "turn", "river"].map((street) => [street, { seat: 1, street, action: { type: "check" }, auto: "away" }]),
      );

      // Once the hand is over the seat is released and its stack is back on Kay's balance, paid once.
      await expect.poll(() => seatRow(kayId!), { timeout: 15_000 }).toBeNull();
      const [left] = await sql(`SELECT stack, left_at FROM holdem_seats WHERE id = $1`, [bought.id]);
      expect(left.left_at).not.toBeNull();
      const cashOuts = await sql(`SELECT delta FROM ledger_entries WHERE player_id = $1 AND reason = 'cash_out'`, [kayId]);
      expect(cashOuts.map((r) => Number(r.delta))).toEqual([Number(left.stack)]);
      expect(await balanceOf(sql, kayId!)).toBe(kayBalance - BUY_INS[1]! + Number(left.stack));
      for (const frame of present)
        await expect.poll(() => frame.getByTestId("holdem-seat-1").getAttribute("data-free"), { timeout: 15_000 }).toBe("true");
      // Kay's page shows her without a seat now.
      await expect.poll(() => attr(kayLate, "data-my-seat"), { timeout: 15_000 }).toBe("");
      const afterTwo = await stacksShown();
      expect(afterTwo[1]).toBeUndefined();
      expect(Number(left.stack) + afterTwo[2]! + afterTwo[3]!).toBe(450);

      // No page drew another seat's card face up before a hand was over.
      for (const frame of [lee, nia, mo, kayLate]) expect(await leaks(frame)).toEqual([]);
      await t.expectLedgerInvariant();
      await page.close();
    },
  );
});
