import { randomBytes, randomUUID } from "node:crypto";
import type { EntityManager } from "typeorm";
import {
  CRASH_CHAIN_SALT,
  PAYOUT_ROUNDING,
  chainGameHash,
  chainTerminatingHash,
  crashPointHundredths,
  isRoundingRule,
  LEGACY_ROUNDING,
  type RoundingRule,
} from "@casino/common";
import type { CrashSettings } from "../platform/config";
import { isUniqueViolation, type Database } from "../platform/db/database";
import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import { crashRestartPlan } from "./crash-machine";

/** The chain a scope's rounds come from; its seed never leaves the server. */
export interface ChainInfo {
  id: string;
  terminatingHash: string;
  salt: string;
  length: number;
}

/** A round that this process has opened and runs. */
export interface OpenedRound {
  roundId: string;
  gameNumber: number;
  /** Secret until the bust. */
  gameHash: string;
  crashPoint: number;
  /** The payout rounding rule of the round's cash-outs. */
  rounding: RoundingRule;
  chain: ChainInfo;
}

export type OpenResult = { opened: OpenedRound } | { busy: true } | { stale: string };

export interface RevealedRound {
  roundId: string;
  gameNumber: number;
  gameHash: string;
  crashPoint: number;
  phase: "busted" | "void";
  terminatingHash: string;
  /** The payout rounding rule of the round's cash-outs. */
  rounding: RoundingRule;
}

export interface StoredBet {
  betId: string;
  playerId: string;
  amount: number;
  autoCashOut: number | null;
  status: "active" | "cashed_out" | "lost" | "refunded";
  cashedOutAt: number | null;
  payout: number;
}

/** The ledger's settlement of a bet whose round's process went away, as the restart rule decided it. */
export interface InterruptedBetSettler {
  settleInterruptedCrashBet(betId: string, cashedOutAt: number | null): Promise<unknown>;
}

const OPEN = `phase IN ('betting','running')`;

/**
 * The shared crash room's rounds in the database: chains per scope, claiming the next game of a
 * chain, the phase changes, the bust, and the settlement of rounds whose process went away.
 *
 * A round belongs to the process that opened it (`owner`) for as long as that process renews its
 * lease. At most one round per scope is open at a time (a unique index), and a chain's next game is
 * taken under the chain row's lock, so two processes never play the same game hash.
 */
export class CrashStore {
  /** This process: the owner written on the rounds it runs. */
  readonly owner = randomUUID();

  constructor(
    private readonly db: Database,
    private readonly ledger: InterruptedBetSettler,
    private readonly settings: CrashSettings,
  ) {}

  /** The chain of a scope, created (and so committed to) when the scope has none: its terminating hash is shown before its first game. */
  async chainOf(scope: string): Promise<ChainInfo> {
    return this.db.transaction(async (em) => toChainInfo(await this.activeChain(em, scope)));
  }

  /**
   * Opens the scope's next round in its betting phase, or says why not: another process has a round
   * in play (busy), or a round was left by a process whose lease ran out (stale: settle it first).
   */
  async openRound(scope: string): Promise<OpenResult> {
    try {
      return await this.db.transaction(async (em) => {
        const [open] = await sqlRows<Row<"crash_rounds", "id"> & { expired: boolean }>(
          em,
          `SELECT id, lease_until < now() AS expired FROM crash_rounds WHERE scope = $1 AND ${OPEN}`,
          [scope],
        );
        if (open) return open.expired ? { stale: open.id } : { busy: true as const };
        const chain = await this.activeChain(em, scope);
        const gameNumber = Number(chain.next_game);
        const length = Number(chain.length);
        const gameHash = chainGameHash(chain.seed, length, gameNumber);
        const crashPoint = Number(crashPointHundredths(gameHash, chain.salt));
        await sqlRows(
          em,
          `UPDATE crash_chains SET next_game = next_game + 1, exhausted_at = CASE WHEN next_game = length THEN now() END WHERE id = $1`,
          [chain.id],
        );
        const [round] = await sqlRows<Row<"crash_rounds", "id">>(
          em,
          `INSERT INTO crash_rounds (chain_id, game_number, scope, game_hash, crash_point, phase, owner, lease_until, rounding)
           VALUES ($1, $2, $3, $4, $5, 'betting', $6, now() + $7 * interval '1 millisecond', $8) RETURNING id`,
          [chain.id, gameNumber, scope, gameHash, crashPoint, this.owner, this.settings.leaseMs, PAYOUT_ROUNDING],
        );
        return {
          opened: { roundId: round!.id, gameNumber, gameHash, crashPoint, rounding: PAYOUT_ROUNDING, chain: toChainInfo(chain) },
        };
      });
    } catch (error) {
      // Another process opened a round of this scope at the same moment: theirs stands.
      if (isUniqueViolation(error)) return { busy: true };
      throw error;
    }
  }

  /** Betting → running. The update waits for bets still being written (they hold the round FOR SHARE). */
  async startRunning(roundId: string): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE crash_rounds SET phase = 'running', running_at = now(), lease_until = now() + $3 * interval '1 millisecond'
          WHERE id = $1 AND phase = 'betting' AND owner = $2 RETURNING id`,
        [roundId, this.owner, this.settings.leaseMs],
      ),
    );
    return rows.length > 0;
  }

  /** Keeps this process's claim on its open round; false when the round is no longer ours to run. */
  async renewLease(roundId: string): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE crash_rounds SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND owner = $2 AND ${OPEN} RETURNING id`,
        [roundId, this.owner, this.settings.leaseMs],
      ),
    );
    return rows.length > 0;
  }

  /**
   * The bust: the round ends and every bet still in loses (its stake was taken when it was placed), in
   * one transaction that also writes their game sessions. A bet being cashed out at the same moment
   * either commits first (and is left alone) or finds itself lost and is refused.
   */
  async bust(roundId: string): Promise<boolean> {
    return this.db.transaction(async (em) => {
      // The players' rows first, in one order, like every money transaction: a cash-out holds its
      // player's row while it waits for its bet, so taking the bets first could deadlock with it.
      await sqlRows(
        em,
        `SELECT id FROM players WHERE id IN (SELECT player_id FROM crash_bets WHERE round_id = $1) ORDER BY id FOR NO KEY UPDATE`,
        [roundId],
      );
      const ended = await sqlRows(
        em,
        `UPDATE crash_rounds SET phase = 'busted', settled_by = 'bust', ended_at = now() WHERE id = $1 AND phase = 'running' AND owner = $2
         RETURNING game_number, crash_point`,
        [roundId, this.owner],
      );
      if (ended.length === 0) return false;
      const lost = await sqlRows(
        em,
        `UPDATE crash_bets SET status = 'lost', settled_by = 'bust', settled_at = now() WHERE round_id = $1 AND status = 'active'
         RETURNING player_id, request_id, amount, auto_cash_out`,
        [roundId],
      );
      if (lost.length > 0) {
        const params = lost.map((b) =>
          JSON.stringify({
            roundId,
            gameNumber: Number(ended[0].game_number),
            autoCashOut: b.auto_cash_out === null ? null : Number(b.auto_cash_out),
          }),
        );
        const outcome = JSON.stringify({ crashPoint: Number(ended[0].crash_point) });
        await sqlRows(
          em,
          `INSERT INTO game_sessions (player_id, game_type, amount, bet_amount, result, payout, request_id, params, actions, outcome)
           SELECT player_id, 'crash', amount, amount, 'lose', 0, request_id, params, '[]'::jsonb, $5::jsonb
             FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::jsonb[]) AS t(player_id, request_id, amount, params)`,
          [lost.map((b) => b.player_id), lost.map((b) => b.request_id), lost.map((b) => b.amount), params, outcome],
        );
      }
      return true;
    });
  }

  /** The bets of a round as stored (to rebuild a room's view). */
  async bets(roundId: string): Promise<StoredBet[]> {
    const rows = await this.db.run((em) =>
      sqlRows<Row<"crash_bets">>(em, `SELECT * FROM crash_bets WHERE round_id = $1 ORDER BY created_at, id`, [roundId]),
    );
    return rows.map((r) => ({
      betId: r.id,
      playerId: r.player_id,
      amount: Number(r.amount),
      autoCashOut: r.auto_cash_out === null ? null : Number(r.auto_cash_out),
      status: r.status,
      cashedOutAt: r.cashed_out_at === null ? null : Number(r.cashed_out_at),
      payout: Number(r.payout),
    }));
  }

  /** The scope's most recent finished rounds, newest first, with their revealed hashes. */
  async history(scope: string, limit: number): Promise<RevealedRound[]> {
    const rows = await this.db.run((em) =>
      sqlRows<
        Row<"crash_rounds", "id" | "game_number" | "game_hash" | "crash_point" | "rounding"> & { phase: RevealedRound["phase"] } & Row<
            "crash_chains",
            "terminating_hash"
          >
      >(
        em,
        `SELECT r.id, r.game_number, r.game_hash, r.crash_point, r.phase, r.rounding, c.terminating_hash
           FROM crash_rounds r JOIN crash_chains c ON c.id = r.chain_id
          WHERE r.scope = $1 AND r.phase IN ('busted','void') ORDER BY r.ended_at DESC LIMIT $2`,
        [scope, limit],
      ),
    );
    return rows.map((r) => ({
      roundId: r.id,
      gameNumber: Number(r.game_number),
      gameHash: r.game_hash,
      crashPoint: Number(r.crash_point),
      phase: r.phase,
      terminatingHash: r.terminating_hash,
      rounding: roundingOf(r.rounding),
    }));
  }

  /**
   * Settles a round whose process is gone, by the restart rule (`crashRestartPlan`, decided with the
   * room's other rules in its machine; every active bet through the ledger,
   * each in its own transaction, each at most once), then closes it: void if it was still taking bets,
   * busted otherwise. Only a round whose lease has run out is taken (or, with `own`, a round of this
   * process that is shutting down), and taking it renews the lease for this process, so two processes
   * do not settle the same round at once. Safe to repeat.
   */
  async recover(roundId: string, own = false): Promise<boolean> {
    const claimed = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE crash_rounds SET owner = $2, lease_until = now() + $3 * interval '1 millisecond'
          WHERE id = $1 AND ${OPEN} AND (lease_until < now() OR ($4 AND owner = $2)) RETURNING id`,
        [roundId, this.owner, this.settings.leaseMs, own],
      ),
    );
    if (claimed.length === 0) return false;
    const { round, active } = await this.db.run(async (em) => {
      const [round] = await sqlRows<Row<"crash_rounds", "phase" | "crash_point">>(
        em,
        `SELECT phase, crash_point FROM crash_rounds WHERE id = $1`,
        [roundId],
      );
      const active = await sqlRows<Row<"crash_bets", "id" | "auto_cash_out">>(
        em,
        `SELECT id, auto_cash_out FROM crash_bets WHERE round_id = $1 AND status = 'active' ORDER BY created_at, id`,
        [roundId],
      );
      return { round: round!, active };
    });
    const plan = crashRestartPlan(
      { phase: round.phase as "betting" | "running", crashPoint: Number(round.crash_point) },
      active.map((b) => ({ id: b.id, autoCashOut: b.auto_cash_out === null ? null : Number(b.auto_cash_out) })),
    );
    for (const bet of plan.bets) await this.ledger.settleInterruptedCrashBet(bet.betId, bet.cashedOutAt);
    const closed = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE crash_rounds SET phase = $3, settled_by = 'restart', ended_at = now()
          WHERE id = $1 AND ${OPEN} AND owner = $2 AND NOT EXISTS (SELECT 1 FROM crash_bets WHERE round_id = $1 AND status = 'active')
          RETURNING id`,
        [roundId, this.owner, plan.closeAs],
      ),
    );
    return closed.length > 0;
  }

  /** Every open round whose lease has run out, settled by the restart rule; the number settled. */
  async recoverStale(): Promise<number> {
    const stale = await this.db.run((em) =>
      sqlRows<Row<"crash_rounds", "id">>(em, `SELECT id FROM crash_rounds WHERE ${OPEN} AND lease_until < now()`),
    );
    let settled = 0;
    for (const round of stale) if (await this.recover(round.id)) settled += 1;
    return settled;
  }

  /** The scope's chain in use, under its row lock; a new one when there is none or the last ran out. */
  private async activeChain(em: EntityManager, scope: string): Promise<Row<"crash_chains">> {
    const find = () =>
      sqlRows<Row<"crash_chains">>(em, `SELECT * FROM crash_chains WHERE scope = $1 AND exhausted_at IS NULL FOR UPDATE`, [scope]);
    let [chain] = await find();
    if (!chain) {
      const seed = randomBytes(32).toString("hex");
      const length = this.settings.chainLength;
      // Two processes may race to create it: the partial unique index keeps one, and both then lock that one.
      await sqlRows(
        em,
        `INSERT INTO crash_chains (scope, seed, terminating_hash, salt, length) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (scope) WHERE exhausted_at IS NULL DO NOTHING`,
        [scope, seed, chainTerminatingHash(seed, length), CRASH_CHAIN_SALT, length],
      );
      [chain] = await find();
    }
    return chain!;
  }
}

const toChainInfo = (c: Row<"crash_chains", "id" | "terminating_hash" | "salt" | "length">): ChainInfo => ({
  id: c.id,
  terminatingHash: c.terminating_hash,
  salt: c.salt,
  length: Number(c.length),
});

/** A stored rule, read back (a value outside the known rules is a corrupt row: rounded down, as before rules). */
const roundingOf = (value: unknown): RoundingRule => {
  const rule = Number(value);
  return isRoundingRule(rule) ? rule : LEGACY_ROUNDING;
};
