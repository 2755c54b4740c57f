import { expect } from "vitest";
import type { ConsoleMessage, Frame } from "playwright-core";
import { HOLDEM_HAND_PAUSE_MS } from "@casino/common/holdem-table";
import type { ManualClock } from "../../server/src/platform/clock";

/**
 * The Hold'em table's browser tests' common steps for players in the fake Discord host's frames (one
 * frame per member of the activity instance), against a room on a ManualClock.
 */

export const tableOf = (frame: Frame) => frame.getByTestId("holdem-table");

/** One of the table's data attributes (`data-hand`, `data-to-act`, `data-my-seat`…), "" when absent. */
export const attr = async (frame: Frame, name: string) => (await tableOf(frame).getAttribute(name)) ?? "";

/** From the lobby's poker tile to the instance's Hold'em table, joined. */
export async function openTable(frame: Frame) {
  const said: string[] = [];
  // The page's warnings and errors (every frame's: a console message does not say which frame wrote it).
  const listen = (message: ConsoleMessage) => {
    if (message.type() === "warning" || message.type() === "error") said.push(`${message.type()}: ${message.text()}`);
  };
  frame.page().on("console", listen);
  try {
    await frame.getByTestId("join-table-holdem").click();
    await frame.locator('[data-testid="holdem-table"]:not([data-phase="connecting"])').waitFor({ timeout: 30_000 });
  } catch (error) {
    // What the page showed instead, for the failure's message.
    const shown = await frame
      .evaluate(() => ({
        url: location.href,
        phase: document.querySelector('[data-testid="holdem-table"]')?.getAttribute("data-phase") ?? "no table",
        connection: document.querySelector('[data-testid="holdem-table"]')?.getAttribute("data-status") ?? "",
        statuses: [...document.querySelectorAll('[role="status"]')].map((e) => e.textContent),
      }))
      .catch((e: unknown) => String(e));
    throw new Error(`the Hold'em table did not open: ${JSON.stringify(shown)}; console: ${JSON.stringify(said.slice(-10))}`, {
      cause: error,
    });
  } finally {
    frame.page().off("console", listen);
  }
}

/** Notes every face-up card drawn at a seat that is not the page's own while the hand is not over (window.holdemLeaks). */
export async function watchForLeaks(frame: Frame) {
  await frame.evaluate(() => {
    const w = window as unknown as { holdemLeaks: string[] };
    w.holdemLeaks = [];
    const check = () => {
      const table = document.querySelector('[data-testid="holdem-table"]');
      if (!table || table.getAttribute("data-street") === "complete" || table.getAttribute("data-street") === "") return;
      for (const card of document.querySelectorAll('[data-mine="false"] [data-testid$="-cards"] [data-card]'))
        w.holdemLeaks.push(`${table.getAttribute("data-street")}: ${card.getAttribute("data-card")}`);
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true });
    check();
  });
}
export const leaks = (frame: Frame) => frame.evaluate(() => (window as unknown as { holdemLeaks: string[] }).holdemLeaks);

/**
 * Playing hands from the pages: `watcher` is a page at the table without a seat (its attributes say
 * whose turn it is), `bySeat` each seated player's page (the caller replaces a page that reloads), and
 * `frames` every page that must show each hand.
 */
export function holdemPlay(clock: ManualClock, watcher: Frame, bySeat: Record<number, Frame>, frames: () => Frame[]) {
  /** Deals the next hand (the clock past the pause) and waits until every page shows it. */
  const deal = async (n: number) => {
    await expect.poll(() => attr(watcher, "data-next-hand-at"), { timeout: 15_000 }).not.toBe("");
    void clock.advance(HOLDEM_HAND_PAUSE_MS);
    for (const frame of frames()) await expect.poll(() => attr(frame, "data-hand"), { timeout: 15_000 }).toBe(String(n));
  };
  /** The seat to act presses `testId` (after `size`, a bet size), and the move lands on the watcher's page. */
  const press = async (testId: string, size?: string) => {
    const seat = Number(await attr(watcher, "data-to-act"));
    const street = await attr(watcher, "data-street");
    const frame = bySeat[seat]!;
    await expect.poll(() => attr(frame, "data-my-turn"), { timeout: 15_000 }).toBe("true");
    if (size) await frame.getByTestId(size).click();
    await frame.getByTestId(testId).click();
    await expect
      .poll(async () => (await attr(watcher, "data-to-act")) !== String(seat) || (await attr(watcher, "data-street")) !== street, {
        timeout: 15_000,
      })
      .toBe(true);
    return seat;
  };
  /** Plays on with calls and checks until the hand is over. */
  const checkDown = async () => {
    for (let i = 0; (await attr(watcher, "data-street")) !== "complete"; i++) {
      expect(i).toBeLessThan(16);
      if (!(await attr(watcher, "data-to-act"))) {
        await expect
          .poll(async () => (await attr(watcher, "data-to-act")) !== "" || (await attr(watcher, "data-street")) === "complete")
          .toBe(true);
        continue;
      }
      const seat = Number(await attr(watcher, "data-to-act"));
      await press((await bySeat[seat]!.getByTestId("holdem-call").isVisible()) ? "holdem-call" : "holdem-check");
    }
  };
  return { deal, press, checkDown };
}
