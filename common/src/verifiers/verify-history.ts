import { z } from "zod";
import { HISTORY_KINDS, type HistoryItem } from "../api";
import { GameRuleError } from "../games/engine";
import { verifyRound, type RoundVerification, type VerifyRequest } from "./verify";

/**
 * A player's whole history, verified at once: every row of `GET /api/player/:id/history` whose seed
 * pair has been revealed is re-derived and compared with what the server recorded (`npm run verify --
 * --history <file.json>`).
 */

/**
 * What the verifier needs for a history row: its revealed seed pair, nonce, game, opening bet, params,
 * actions and rounding rule. Null (with why) while the server seed is not revealed, and for rows not
 * drawn from the player's seeds (the shared rooms verify by their own records).
 */
export function verifyRequestOfHistory(item: HistoryItem): VerifyRequest | { skipped: string } {
  const f = item.fairness;
  if (f.clientSeed === null || f.nonce === null || f.serverSeedHash === null) return { skipped: "not drawn from the player's seeds" };
  if (f.serverSeed === null) return { skipped: "its server seed is not revealed yet (rotate the seeds to reveal it)" };
  const hasParams = item.params !== null && typeof item.params === "object" && Object.keys(item.params).length > 0;
  return {
    serverSeed: f.serverSeed,
    serverSeedHash: f.serverSeedHash,
    clientSeed: f.clientSeed,
    nonce: f.nonce,
    game: item.gameType,
    ...(item.amount !== null ? { amount: item.amount } : {}),
    ...(hasParams ? { params: item.params } : {}),
    ...(item.actions.length > 0 ? { actions: item.actions } : {}),
    ...(item.rounding !== null ? { rounding: item.rounding } : {}),
  };
}

/** One history row checked: re-derived (or skipped, with why) and compared with its record. */
export interface HistoryRoundCheck {
  item: HistoryItem;
  verification: RoundVerification | null;
  /** why the row was not re-derived; null when it was */
  skipped: string | null;
  /** what differs from the record (the commitment included); empty when the row matches */
  problems: string[];
}

export function checkHistoryRound(item: HistoryItem): HistoryRoundCheck {
  const request = verifyRequestOfHistory(item);
  if ("skipped" in request) return { item, verification: null, skipped: request.skipped, problems: [] };
  let verification: RoundVerification;
  try {
    verification = verifyRound(request);
  } catch (e) {
    if (!(e instanceof GameRuleError)) throw e;
    return { item, verification: null, skipped: null, problems: [`cannot be re-derived: ${e.message}`] };
  }
  const problems: string[] = [];
  if (verification.commitment.matches === false) problems.push("the revealed server seed does not match the hash shown before");
  if (!verification.done) problems.push("the re-derived round is still open");
  const recorded = `staked ${item.betAmount}, paid ${item.payout} (${item.result})`;
  const derived = `staked ${verification.totalStake}, paid ${verification.totalPayout} (${verification.result})`;
  if (verification.done && recorded !== derived) problems.push(`recorded ${recorded}, re-derived ${derived}`);
  return { item, verification, skipped: null, problems };
}

const historyRow = z.object({
  id: z.string(),
  kind: z.enum(HISTORY_KINDS),
  gameType: z.string(),
  amount: z.number().int().nullable(),
  betAmount: z.number().int(),
  result: z.enum(["win", "lose", "push"]),
  payout: z.number().int(),
  requestId: z.string().nullable().default(null),
  params: z.unknown(),
  actions: z.array(z.unknown()),
  rounding: z.union([z.literal(1), z.literal(2)]).nullable(),
  outcome: z.unknown(),
  createdAt: z.string(),
  fairness: z.object({
    serverSeedHash: z.string().nullable(),
    clientSeed: z.string().nullable(),
    nonce: z.number().int().nullable(),
    serverSeed: z.string().nullable(),
  }),
});

/** A history file: a page as `GET /api/player/:id/history` answers it, or its `items` alone. */
export const historyFile = z
  .union([z.object({ items: z.array(historyRow) }), z.array(historyRow)])
  .transform((file): HistoryItem[] => (Array.isArray(file) ? file : file.items));
