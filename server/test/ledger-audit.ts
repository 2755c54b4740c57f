import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { BetAnswer } from "@casino/common";
import type { Play } from "../../common/test/games/case-support";
import { AppError } from "../src/platform/errors";
import type { Ledger } from "../src/ledger";
import type { LedgerAudit } from "../src/ops/audit-ledger";

/**
 * Double entry, asserted wherever a test audits the ledger (every test's `expectLedgerInvariant()`, and
 * `auditDatabase` after the fault tests): every coin that moved came from an account and went to one, so
 * the players' balances and the house's, mint's and holdings' sum to zero, and every holding holds the
 * stakes of the rounds still open there.
 */
export function expectBalancedEconomy(audit: LedgerAudit): void {
  expect(audit.economy.total, `the economy does not sum to zero: ${JSON.stringify(audit.economy)}`).toBe(0);
  expect(audit.holdingMismatches).toEqual([]);
}

/**
 * Plays one round of `game` through the ledger (as the casino room would): the opening bet, then, unless
 * `finish` is false, the round's actions (`finishRound`). Answers the last answer (`done` false: the
 * round was left open).
 */
export async function playRound(ledger: Ledger, playerId: string, game: string, play: Play, finish = true): Promise<BetAnswer> {
  const answer = await ledger.placeBet(playerId, newId(), game, play.amount, play.params);
  return finish ? finishRound(ledger, playerId, play, answer) : answer;
}

/** Acts in the player's open round until it ends: each time the first of the play's actions the game accepts. */
export async function finishRound(ledger: Ledger, playerId: string, play: Play, answer: BetAnswer): Promise<BetAnswer> {
  for (let steps = 0; !answer.done; steps++) {
    if (steps > 50 || !play.act) throw new Error(`${answer.game}: the round did not end`);
    let next: BetAnswer | null = null;
    for (const action of play.act(answer.view)) {
      try {
        next = await ledger.act(playerId, newId(), action);
        break;
      } catch (error) {
        if (!(error instanceof AppError) || error.status !== 400) throw error;
      }
    }
    if (!next) throw new Error(`${answer.game}: no action of the play was accepted`);
    answer = next;
  }
  return answer;
}

const newId = () => `req-${randomUUID()}`;
