import { expect } from "vitest";
import { GAMES } from "@casino/common/catalogue";
import { STARTING_BALANCE } from "@casino/common/constants";
import {
  history,
  openGame,
  serverBalance,
  setAmount,
  settled,
  shownBalance,
  shownResult,
  type HistoryRow,
  type Table,
} from "./games-helpers";

/**
 * One driver per chance game, each in its own file `games/<game>.ts` (default-exporting its
 * `GameCase`): how to place a bet with the table's own controls and finish the round with its actions,
 * and what the table must show of the server's outcome. Outcomes are random; each driver acts until the
 * round is over, whatever the cards or dice say. Played standalone (games.test.ts), inside the Discord
 * host (games-discord.test.ts), at 1 coin (one-coin.test.ts), verified (verify-all.test.ts), checked for
 * accessibility (a11y-tables.ts) and on phones (layout.test.ts). Nothing here lists games: the drivers are
 * found by their file and put in the catalogue's order.
 */

/** The case's stake (per chip on chip tables): every bet takes any stake from 1 coin. */
export const stakeOf = (game: { id: string; amount: number }) => game.amount;

export interface GameCase {
  /** the game's id in the catalogue: the driver's file is `games/<id>.ts` */
  id: string;
  amount: number;
  /** places the bet and finishes the round with the table's controls */
  play(page: Table): Promise<void>;
  /** checks what the table shows against the server's record of the round's outcome (`stake`: the amount set) */
  check(page: Table, outcome: any, stake: number): Promise<void>;
  /** what a round of `play` stakes in all, as a multiple of the amount set (a chip per spot, a raise): 1 when absent */
  chips?: number;
  /** how many separate bets a round of `play` holds (a layout's spots): 1 when absent */
  bets?: number;
  /** what one-coin.test.ts plays instead of `play`, where that rarely pays at 1 coin */
  playToBePaid?(page: Table): Promise<void>;
  /**
   * A round left open, for layout.test.ts (a game whose engine takes actions must say): the spots to
   * press before the bet, the round's controls on the table itself (besides the action bar's) and the
   * actions that finish it.
   */
  openRound?: { before: string[]; onTable?: string[]; finish: string[] };
  /**
   * The test ids of the game's own settings a player chooses before the first bet (mines' count, the
   * solo/table switch): layout.test.ts requires each on screen on a phone before the first bet.
   */
  ownSettings?: string[];
  /** its betting layout, for games.test.ts: the spots' test-id prefix, the buttons of that prefix that are no spot, and how many spots */
  layout?: { prefix: string; exclude: string[]; spots: number };
}

const DRIVERS = Object.fromEntries(
  Object.entries(import.meta.glob<GameCase>("./games/*.ts", { eager: true, import: "default" })).map(([path, driver]) => {
    const file = /^\.\/games\/(.+)\.ts$/.exec(path)![1]!;
    if (driver.id !== file) throw new Error(`games/${file}.ts drives ${driver.id}: a driver's file is named by its game's id`);
    return [file, driver];
  }),
);

/** The catalogue's chance games, in its order. */
export const CHANCE_GAMES: string[] = GAMES.filter((g) => g.kind === "chance").map((g) => g.id);

/** The drivers of the catalogue's chance games, in the catalogue's order (games.test.ts fails for a game without one). */
export const CASES: GameCase[] = CHANCE_GAMES.flatMap((id) => (DRIVERS[id] ? [DRIVERS[id]] : []));

/** What is wrong with the drivers: a chance game of the catalogue without one, a driver of no chance game. */
export const driverGaps = (): string[] => [
  ...CHANCE_GAMES.filter((id) => !DRIVERS[id]).map(
    (id) => `${id} is a chance game of the catalogue with no driver: add client/e2e/games/${id}.ts`,
  ),
  ...Object.keys(DRIVERS)
    .filter((id) => !CHANCE_GAMES.includes(id))
    .map((id) => `games/${id}.ts drives no chance game of the catalogue`),
];

export const caseOf = (id: string): GameCase => {
  const found = DRIVERS[id];
  if (!found) throw new Error(`no driver for ${id}: a chance game's driver is client/e2e/games/${id}.ts, default-exporting its GameCase`);
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
  expect(round.betAmount, `${game.id}: what its driver stakes`).toBe(stakeOf(game) * (game.chips ?? 1));
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
