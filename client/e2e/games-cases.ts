import { expect } from "vitest";
import { cardName } from "@casino/common/games/cards";
import { STARTING_BALANCE } from "@casino/common/constants";
import { formatMultiplier } from "@casino/common/format";
import {
  attr,
  cardsIn,
  firstEnabled,
  history,
  isEnabled,
  openGame,
  playOut,
  press,
  roundDone,
  serverBalance,
  setAmount,
  settled,
  shownBalance,
  shownResult,
  type HistoryRow,
  type Table,
} from "./games-helpers";

/**
 * One driver per chance game: how to place a bet with the table's own controls and finish the round
 * with its actions, and what the table must show of the server's outcome. Outcomes are random; each
 * driver acts until the round is over, whatever the cards or dice say. Played standalone
 * (games.test.ts) and inside the Discord host (games-discord.test.ts).
 */

/** The case's stake (per chip on chip tables): every bet takes any stake from 1 coin. */
export const stakeOf = (game: { id: string; amount: number }) => game.amount;

export interface GameCase {
  id: string;
  amount: number;
  /** places the bet and finishes the round with the table's controls */
  play(page: Table): Promise<void>;
  /** checks what the table shows against the server's record of the round's outcome (`stake`: the amount set) */
  check(page: Table, outcome: any, stake: number): Promise<void>;
}

export const CASES: GameCase[] = [
  {
    id: "blackjack",
    amount: 10,
    play: async (page) => {
      await press(page, "bet-button");
      await playOut(page, firstEnabled(page, ["bj-insurance-decline", "bj-stand"]));
    },
    check: async (page, outcome) => {
      expect(await cardsIn(page, "bj-dealer")).toEqual(outcome.dealer.map(cardName));
      expect(await attr(page, "bj-hand-0", "data-result")).toBe(outcome.hands[0].result);
    },
  },
  {
    id: "poker",
    amount: 10,
    play: async (page) => {
      await press(page, "bet-button");
      await press(page, "poker-raise");
    },
    check: async (page, outcome) => {
      expect(await attr(page, "poker-outcome", "data-outcome")).toBe(outcome.outcome);
      expect(await cardsIn(page, "poker-dealer")).toEqual(outcome.dealer.map(cardName));
      expect(await cardsIn(page, "poker-player")).toEqual(outcome.player.map(cardName));
    },
  },
  {
    id: "baccarat",
    amount: 10,
    play: async (page) => {
      await page.getByTestId("baccarat-banker").click();
      await page.getByTestId("baccarat-tie").click();
      await press(page, "bet-button");
    },
    check: async (page, outcome, stake) => {
      expect(outcome.bets).toEqual({ banker: stake, tie: stake });
      expect(await attr(page, "baccarat-winner", "data-winner")).toBe(outcome.winner);
      expect(await cardsIn(page, "baccarat-player-hand")).toEqual(outcome.player.map(cardName));
      expect(await cardsIn(page, "baccarat-banker-hand")).toEqual(outcome.banker.map(cardName));
    },
  },
  {
    id: "three-card-poker",
    amount: 5,
    play: async (page) => {
      await page.getByTestId("tcp-ante").click();
      await page.getByTestId("tcp-pairPlus").click();
      await press(page, "bet-button");
      await press(page, "tcp-play");
    },
    check: async (page, outcome, stake) => {
      expect([outcome.ante, outcome.pairPlus]).toEqual([stake, stake]);
      expect(await attr(page, "tcp-outcome", "data-outcome")).toBe(outcome.anteOutcome);
      expect(await cardsIn(page, "tcp-dealer")).toEqual(outcome.dealer.map(cardName));
    },
  },
  {
    id: "video-poker",
    amount: 10,
    play: async (page) => {
      await press(page, "bet-button");
      await page.getByTestId("vp-card-0").click();
      await page.getByTestId("vp-card-3").click();
      await press(page, "vp-draw");
    },
    check: async (page, outcome) => {
      expect(outcome.held).toEqual([true, false, false, true, false]);
      expect(await cardsIn(page, "vp-hand")).toEqual(outcome.final.map(cardName));
      const lit = page.locator('[data-testid^="vp-line-"][data-lit="true"]');
      if (outcome.paysPerCredit > 0) expect(await lit.getAttribute("data-testid")).toBe(`vp-line-${outcome.finalHand}`);
      else expect(await lit.count()).toBe(0);
    },
  },
  {
    id: "crash",
    amount: 10,
    play: async (page) => {
      await page.getByTestId("crash-cashout").fill("1.50");
      await press(page, "bet-button");
    },
    check: async (page, outcome) => {
      expect(outcome.cashOutAt).toBe(1.5);
      await page.getByTestId("crash-point").waitFor();
      expect(Number(await attr(page, "crash-point", "data-value"))).toBe(outcome.crashPoint);
    },
  },
  {
    id: "coin-flip",
    amount: 10,
    play: async (page) => {
      await page.getByTestId("coin-tails").click();
      await press(page, "bet-button");
    },
    check: async (page, outcome) => {
      expect(outcome.side).toBe("tails");
      expect(await attr(page, "coin-outcome", "data-outcome")).toBe(outcome.outcome);
    },
  },
  {
    id: "hi-lo",
    amount: 10,
    play: async (page) => {
      await press(page, "bet-button");
      // guess the likelier side; cash out after the first correct guess
      await playOut(page, async () => {
        if (await isEnabled(page, "hilo-cashout")) return "hilo-cashout";
        const card = Number(await attr(page, "hilo-card", "data-card"));
        const rank = Math.floor(card / 4) + 2;
        const preferred = rank <= 8 ? "hilo-higher" : "hilo-lower";
        return (await firstEnabled(page, [preferred, "hilo-higher", "hilo-lower", "hilo-skip"])()) ?? null;
      });
    },
    check: async (page, outcome) => {
      expect(await attr(page, "hilo-status", "data-status")).toBe(outcome.status);
      expect(Number(await attr(page, "hilo-card", "data-card"))).toBe(outcome.card);
    },
  },
  {
    id: "dice",
    amount: 10,
    play: async (page) => {
      await page.getByTestId("dice-target").fill("60");
      await press(page, "bet-button");
    },
    check: async (page, outcome) => {
      expect(outcome).toMatchObject({ target: 60, direction: "under" });
      expect(await page.getByTestId("dice-roll").textContent()).toBe(outcome.roll.toFixed(2));
    },
  },
  {
    id: "limbo",
    amount: 10,
    play: async (page) => {
      await page.getByTestId("limbo-target").fill("1.75");
      await press(page, "bet-button");
    },
    check: async (page, outcome) => {
      expect(outcome.target).toBe(1.75);
      expect(Number(await attr(page, "limbo-result", "data-value"))).toBe(outcome.result);
      await expect.poll(() => page.getByTestId("limbo-result").textContent()).toBe(formatMultiplier(outcome.result));
    },
  },
  {
    id: "craps",
    amount: 10,
    play: async (page) => {
      await page.getByTestId("craps-pass").click();
      await page.getByTestId("craps-field").click();
      await press(page, "bet-button");
      await playOut(page, firstEnabled(page, ["craps-roll"]));
    },
    check: async (page, outcome) => {
      const last = outcome.rolls[outcome.rolls.length - 1];
      expect(await attr(page, "craps-dice", "data-dice")).toBe(last.join(","));
      expect(outcome.bets).toEqual([]);
    },
  },
  {
    id: "sic-bo",
    amount: 10,
    play: async (page) => {
      await page.getByTestId("sicbo-small").click();
      await page.getByTestId("sicbo-total-10").click();
      await page.getByTestId("sicbo-combination-1-2").click();
      await press(page, "bet-button");
    },
    check: async (page, outcome) => {
      expect(outcome.bets.map((b: any) => b.bet.type)).toEqual(["small", "total", "combination"]);
      expect(await attr(page, "sicbo-dice", "data-dice")).toBe(outcome.dice.join(","));
    },
  },
  {
    id: "slots",
    amount: 10,
    play: async (page) => press(page, "bet-button"),
    check: async (page, outcome) => {
      expect(await attr(page, "slots-line", "data-line")).toBe(outcome.line.join(" "));
    },
  },
  {
    id: "roulette",
    amount: 5,
    play: async (page) => {
      await page.getByTestId("roulette-red").click();
      await page.getByTestId("roulette-straight-17").click();
      await page.getByTestId("roulette-split-17-20").click();
      await page.getByTestId("roulette-corner-1-2-4-5").click();
      await page.getByTestId("roulette-dozen-2").click();
      await press(page, "bet-button");
    },
    check: async (page, outcome, stake) => {
      expect(outcome.bets.map((b: any) => b.bet.type)).toEqual(["red", "straight", "split", "corner", "dozen"]);
      expect(outcome.bets.every((b: any) => b.bet.amount === stake)).toBe(true);
      expect(Number(await attr(page, "roulette-pocket", "data-value"))).toBe(outcome.pocket);
    },
  },
  {
    id: "keno",
    amount: 10,
    play: async (page) => {
      for (const tile of [3, 8, 13, 21, 34]) await page.getByTestId(`keno-tile-${tile}`).click();
      await page.getByTestId("keno-risk").selectOption("high");
      await press(page, "bet-button");
    },
    check: async (page, outcome) => {
      expect(outcome).toMatchObject({ picks: [3, 8, 13, 21, 34], risk: "high" });
      expect(await page.getByTestId("keno-hit").count()).toBe(outcome.hits.length);
      // a hit keeps its number in sight (the gem is only a mark beside it)
      const hitNumbers = await page.getByTestId("keno-hit").allTextContents();
      expect(hitNumbers.map(Number).sort((a, b) => a - b)).toEqual([...outcome.hits].sort((a: number, b: number) => a - b));
      expect(await page.getByTestId("keno-drawn").count()).toBe(outcome.drawn.length - outcome.hits.length);
    },
  },
  {
    id: "mines",
    amount: 10,
    play: async (page) => {
      await page.getByTestId("mines-count").selectOption("3");
      await press(page, "bet-button");
      await press(page, "mines-tile-12");
      if (!(await roundDone(page))) await press(page, "mines-cashout");
    },
    check: async (page, outcome) => {
      expect(outcome.mineCount).toBe(3);
      const mines = await page
        .locator('[data-testid^="mines-tile-"][data-state="mine"]')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-testid")!.slice(11))));
      expect(mines.sort((a, b) => a - b)).toEqual([...outcome.mines].sort((a: number, b: number) => a - b));
    },
  },
];

export const caseOf = (id: string): GameCase => {
  const found = CASES.find((c) => c.id === id);
  if (!found) throw new Error(`no driver for ${id}`);
  return found;
};

/**
 * A new player's first round of `game` on `table`: the bet placed and finished through the UI, then
 * the outcome and balance the table shows checked against the server's record (the round in the
 * player's history, `GET /api/player/:id`). Answers the recorded round.
 */
export async function playFirstRound(
  table: Table,
  game: GameCase,
  baseUrl: string,
  session: { playerId: string; token: string },
): Promise<HistoryRow> {
  await openGame(table, game.id);
  await setAmount(table, stakeOf(game));
  await game.play(table);
  await settled(table);
  const shown = await shownResult(table);
  const rounds = await history(baseUrl, session);
  expect(rounds).toHaveLength(1);
  const round = rounds[0]!;
  expect(round.gameType).toBe(game.id);
  expect({ stake: shown.stake, payout: shown.payout, result: shown.result }).toEqual({
    stake: round.betAmount,
    payout: round.payout,
    result: round.result,
  });
  await game.check(table, round.outcome, stakeOf(game));

  const balance = await serverBalance(baseUrl, session);
  expect(balance).toBe(STARTING_BALANCE - round.betAmount + round.payout);
  expect(shown.balance).toBe(balance);
  await expect.poll(() => shownBalance(table), { timeout: 10_000 }).toBe(balance);
  return round;
}
