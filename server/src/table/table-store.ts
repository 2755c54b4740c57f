import { randomBytes, randomUUID } from "node:crypto";
import { PAYOUT_ROUNDING, isRoundingRule, sha256Hex, type RevealedShoe, type RoundingRule } from "@casino/common";
import type { SeatSeed } from "@casino/common/games/shoe";
import type { RecordedShoeRound, ShoeRound } from "@casino/common/games/blackjack-table";
import type { TableSettings } from "../platform/config";
import { isUniqueViolation, type Database } from "../platform/db/database";
import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import type { Replayable } from "../core/ledger/engine/index";
import type { StoredRound } from "./table-replay";
import { restartPlan, type RecordedAction, type SeatSettlement } from "./round-machine";

export { seatSettlement, type RecordedAction, type SeatSettlement } from "./round-machine";

/** A shoe as the process dealing it holds it: its seed stays on the server until the shoe is finished. */
export interface ShoeRecord {
  id: string;
  tableId: string;
  serverSeed: string;
  serverSeedHash: string;
  /** The seats' client seeds: null until the shoe's first round is dealt. */
  seats: SeatSeed[] | null;
  rounding: RoundingRule;
}

export type OpenShoeResult = { opened: ShoeRecord } | { busy: true } | { stale: string };

export interface StoredTableBet {
  betId: string;
  roundId: string;
  seat: number;
  playerId: string;
  requestId: string;
  amount: number;
  staked: number;
  payout: number;
  status: "active" | "settled" | "refunded";
}

/** The table's money (the ledger's table module): each seat's stakes and payout, exactly once. */
export interface TableMoney {
  settleTableBet(betId: string, settlement: SeatSettlement, by: "table" | "restart"): Promise<{ playerId: string; balance: number } | null>;
  refundTableBet(betId: string): Promise<{ playerId: string; balance: number } | null>;
}

export interface TableBetPlaced {
  requestId: string;
  roundId: string;
  betId: string;
  seat: number;
  amount: number;
  balance: number;
}

export interface TableActionDone {
  requestId: string;
  roundId: string;
  seat: number;
  stake: number;
  balance: number;
}

/** The table's money as the room uses it: the players' own bets and actions, and the settlements. */
export interface TableLedger extends TableMoney {
  placeTableBet(
    playerId: string,
    requestId: string,
    bet: { roundId: string; seat: number; amount: number },
  ): Promise<Replayable<TableBetPlaced>>;
  tableAction(
    playerId: string,
    requestId: string,
    step: { roundId: string; seat: number; index: number; action: unknown; stake: number },
  ): Promise<Replayable<TableActionDone>>;
}

const toShoe = (r: Row<"table_shoes", "id" | "table_id" | "server_seed" | "server_seed_hash" | "seats" | "rounding">): ShoeRecord => ({
  id: r.id,
  tableId: r.table_id,
  serverSeed: r.server_seed,
  serverSeedHash: r.server_seed_hash,
  seats: (r.seats as SeatSeed[] | null) ?? null,
  rounding: isRoundingRule(r.rounding) ? r.rounding : 1,
});

const toBet = (r: Row<"table_bets">): StoredTableBet => ({
  betId: r.id,
  roundId: r.round_id,
  seat: Number(r.seat),
  playerId: r.player_id,
  requestId: r.request_id,
  amount: Number(r.amount),
  staked: Number(r.staked),
  payout: Number(r.payout),
  status: r.status,
});

/** A stored round with its bets as stored. */
export type LoadedRound = Omit<StoredRound, "bets"> & { bets: StoredTableBet[] };

const LIVE = `finished_at IS NULL`;
const OPEN = `phase IN ('betting','playing')`;

/**
 * The shared blackjack table's shoes and rounds in the database: committing a shoe's seed, opening a
 * round's betting, closing it (the deal), recording each action in order, finishing rounds and shoes,
 * and settling the round of a shoe whose process went away (the restart rule).
 *
 * A shoe belongs to the process that deals it (`owner`) for as long as that process renews its lease;
 * at most one shoe per table is being dealt (a unique index), and at most one round per shoe is open.
 */
export class TableStore {
  /** This process: the owner written on the shoes it deals. */
  readonly owner = randomUUID();

  /** Makes each shoe's server seed: 32 random bytes as hex (a test may choose its own). */
  newServerSeed: () => string = () => randomBytes(32).toString("hex");

  constructor(
    private readonly db: Database,
    private readonly money: TableMoney,
    private readonly settings: TableSettings,
  ) {}

  /**
   * Commits a new shoe for the table (its seed's hash is shown from now on, before its first round), or
   * says why not: another process deals this table's shoe (busy), or a shoe was left by a process whose
   * lease ran out (stale: settle it first).
   */
  async openShoe(tableId: string): Promise<OpenShoeResult> {
    try {
      return await this.db.transaction(async (em) => {
        const [live] = await sqlRows<Row<"table_shoes", "id"> & { expired: boolean }>(
          em,
          `SELECT id, lease_until < now() AS expired FROM table_shoes WHERE table_id = $1 AND ${LIVE}`,
          [tableId],
        );
        if (live) return live.expired ? { stale: live.id } : { busy: true as const };
        const serverSeed = this.newServerSeed();
        const [row] = await sqlRows<Row<"table_shoes">>(
          em,
          `INSERT INTO table_shoes (table_id, server_seed, server_seed_hash, rounding, owner, lease_until)
           VALUES ($1, $2, $3, $4, $5, now() + $6 * interval '1 millisecond') RETURNING *`,
          [tableId, serverSeed, sha256Hex(serverSeed), PAYOUT_ROUNDING, this.owner, this.settings.leaseMs],
        );
        return { opened: toShoe(row!) };
      });
    } catch (error) {
      if (isUniqueViolation(error)) return { busy: true };
      throw error;
    }
  }

  /** Keeps this process's claim on its shoe; false when it is no longer ours to deal. */
  async renewLease(shoeId: string): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE table_shoes SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND owner = $2 AND ${LIVE} RETURNING id`,
        [shoeId, this.owner, this.settings.leaseMs],
      ),
    );
    return rows.length > 0;
  }

  /** The shoe's round `round` in its betting phase (the open one when it is already there). */
  async openRound(shoeId: string, round: number): Promise<string> {
    return this.db.transaction(async (em) => {
      const [live] = await sqlRows(em, `SELECT id FROM table_shoes WHERE id = $1 AND ${LIVE} AND owner = $2 FOR SHARE`, [
        shoeId,
        this.owner,
      ]);
      if (!live) throw new Error(`shoe ${shoeId} is no longer dealt by this process`);
      const [open] = await sqlRows<Row<"table_rounds", "id" | "round" | "phase">>(
        em,
        `SELECT id, round, phase FROM table_rounds WHERE shoe_id = $1 AND ${OPEN}`,
        [shoeId],
      );
      if (open) {
        if (open.phase !== "betting" || Number(open.round) !== round) throw new Error(`shoe ${shoeId} has round ${open.round} open`);
        return open.id;
      }
      const [row] = await sqlRows<Row<"table_rounds", "id">>(
        em,
        `INSERT INTO table_rounds (shoe_id, round, phase, actions) VALUES ($1, $2, 'betting', '[]') RETURNING id`,
        [shoeId, round],
      );
      return row!.id;
    });
  }

  /**
   * Closes betting and deals: waits for bets still being written (they hold the round FOR SHARE), then
   * reads the bets as stored. With none the round stays in its betting phase (the next window reuses
   * it). At the shoe's first deal the client seeds of `seated` (the players seated now) are recorded:
   * the shoe is shuffled from them.
   */
  async deal(roundId: string, shoeId: string, seated: readonly { seat: number; playerId: string }[]) {
    return this.db.transaction(async (em) => {
      const [round] = await sqlRows(em, `SELECT id FROM table_rounds WHERE id = $1 AND phase = 'betting' FOR UPDATE`, [roundId]);
      if (!round) throw new Error(`round ${roundId} is not taking bets`);
      const bets = (await sqlRows<Row<"table_bets">>(em, `SELECT * FROM table_bets WHERE round_id = $1 ORDER BY seat`, [roundId])).map(
        toBet,
      );
      if (bets.length === 0) return { bets, seats: null };
      await sqlRows(em, `UPDATE table_rounds SET phase = 'playing', dealt_at = now() WHERE id = $1`, [roundId]);
      const [shoe] = await sqlRows<Row<"table_shoes", "seats">>(em, `SELECT seats FROM table_shoes WHERE id = $1 FOR UPDATE`, [shoeId]);
      let seats = (shoe!.seats as SeatSeed[] | null) ?? null;
      if (seats === null) {
        // Everyone seated now (a seat without a bet too); the bets' seats are seated by construction.
        const bySeat = new Map<number, string>(seated.map((s) => [s.seat, s.playerId]));
        for (const b of bets) bySeat.set(b.seat, b.playerId);
        const players = [...bySeat.values()];
        const rows = await sqlRows<Row<"fairness_seeds", "player_id" | "client_seed">>(
          em,
          `SELECT player_id, client_seed FROM fairness_seeds WHERE player_id = ANY($1::uuid[]) AND active`,
          [players],
        );
        const seedOf = new Map(rows.map((r) => [r.player_id, r.client_seed]));
        seats = [...bySeat.entries()]
          .filter(([, playerId]) => seedOf.has(playerId))
          .sort(([a], [b]) => a - b)
          .map(([seat, playerId]) => ({ seat, clientSeed: seedOf.get(playerId)! }));
        await sqlRows(em, `UPDATE table_shoes SET seats = $2 WHERE id = $1`, [shoeId, JSON.stringify(seats)]);
      }
      return { bets, seats };
    });
  }

  /**
   * Appends an action the server applies on its own (a default action: it stakes nothing), if the
   * round's record is still `index` actions long: a record is only ever extended in order.
   */
  async appendAction(roundId: string, index: number, entry: RecordedAction): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE table_rounds SET actions = actions || $3::jsonb WHERE id = $1 AND phase = 'playing' AND jsonb_array_length(actions) = $2 RETURNING id`,
        [roundId, index, JSON.stringify([entry])],
      ),
    );
    return rows.length > 0;
  }

  /** The round is over once none of its bets is active: settled (or void when it was never dealt). */
  async closeRound(roundId: string, by: "table" | "restart"): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE table_rounds SET phase = CASE WHEN phase = 'betting' THEN 'void' ELSE 'settled' END, settled_by = $2, ended_at = now()
          WHERE id = $1 AND ${OPEN} AND NOT EXISTS (SELECT 1 FROM table_bets WHERE round_id = $1 AND status = 'active') RETURNING id`,
        [roundId, by],
      ),
    );
    return rows.length > 0;
  }

  /** The shoe is finished (its seed revealed from now on): at its cut card, its table closing, or a restart. */
  async finishShoe(shoeId: string, by: "cut_card" | "closed" | "restart"): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE table_shoes SET finished_at = now(), finished_by = $2 WHERE id = $1 AND ${LIVE}
            AND NOT EXISTS (SELECT 1 FROM table_rounds WHERE shoe_id = $1 AND ${OPEN}) RETURNING id`,
        [shoeId, by],
      ),
    );
    return rows.length > 0;
  }

  /** The shoe and its rounds in order, each with its bets: what replaying it needs. */
  async load(shoeId: string): Promise<{ shoe: ShoeRecord & { finished: boolean }; rounds: LoadedRound[] } | null> {
    return this.db.run(async (em) => {
      const [shoe] = await sqlRows<Row<"table_shoes">>(em, `SELECT * FROM table_shoes WHERE id = $1`, [shoeId]);
      if (!shoe) return null;
      const rounds = await sqlRows<Row<"table_rounds", "id" | "round" | "phase" | "actions">>(
        em,
        `SELECT id, round, phase, actions FROM table_rounds WHERE shoe_id = $1 ORDER BY round`,
        [shoeId],
      );
      const bets = (
        await sqlRows<Row<"table_bets">>(
          em,
          `SELECT b.* FROM table_bets b JOIN table_rounds r ON r.id = b.round_id WHERE r.shoe_id = $1 ORDER BY b.seat`,
          [shoeId],
        )
      ).map(toBet);
      return {
        shoe: { ...toShoe(shoe), finished: shoe.finished_at !== null },
        rounds: rounds.map((r) => ({
          id: r.id,
          round: Number(r.round),
          phase: r.phase,
          actions: r.actions as RecordedAction[],
          bets: bets.filter((b) => b.roundId === r.id),
        })),
      };
    });
  }

  /**
   * A finished shoe with its revealed seed, every dealt round's record and what each round's settlement
   * recorded (the seats' game sessions: hands, dealer, stakes and payout); "dealing" while the shoe is
   * still dealt (its seed is secret), "unknown" when there is no such shoe.
   */
  async revealed(shoeId: string): Promise<RevealedShoe | "dealing" | "unknown"> {
    const loaded = await this.load(shoeId);
    if (!loaded) return "unknown";
    if (!loaded.shoe.finished) return "dealing";
    const { shoe, rounds } = loaded;
    const dealt = rounds.filter((r) => r.phase === "settled" && r.bets.length > 0);
    const sessions = await this.db.run((em) =>
      sqlRows<{ bet_id: string; outcome: { hands?: { cards?: number[] }[]; dealer?: number[] } | null }>(
        em,
        `SELECT b.id AS bet_id, g.outcome FROM table_bets b
           JOIN table_rounds r ON r.id = b.round_id
           JOIN game_sessions g ON g.player_id = b.player_id AND g.request_id = b.request_id AND g.game_type = 'blackjack'
                                AND g.params->>'roundId' = b.round_id::text
          WHERE r.shoe_id = $1`,
        [shoeId],
      ),
    );
    const outcomeOf = new Map(sessions.map((x) => [x.bet_id, x.outcome]));
    return {
      id: shoe.id,
      serverSeed: shoe.serverSeed,
      serverSeedHash: shoe.serverSeedHash,
      seats: shoe.seats ?? [],
      rounding: shoe.rounding,
      rounds: dealt.map((r): ShoeRound => ({
        bets: r.bets.map((b) => ({ seat: b.seat, amount: b.amount })),
        actions: r.actions.map((a) => ({ seat: a.seat, action: a.action })),
      })),
      outcomes: dealt.map((r): RecordedShoeRound => {
        const outcomes = r.bets.map((b) => outcomeOf.get(b.betId) ?? null);
        const dealer = outcomes.find((o) => Array.isArray(o?.dealer))?.dealer ?? null;
        return {
          dealer,
          seats: r.bets.map((b, i) => {
            const hands = outcomes[i]?.hands;
            return {
              seat: b.seat,
              hands: Array.isArray(hands) ? hands.map((h) => h.cards ?? []) : null,
              staked: b.staked,
              payout: b.payout,
            };
          }),
        };
      }),
    };
  }

  /** The table's most recently finished shoe (its revealed seed, for the table's snapshot). */
  async lastFinished(tableId: string): Promise<{ id: string; serverSeed: string; serverSeedHash: string } | null> {
    const [row] = await this.db.run((em) =>
      sqlRows<Row<"table_shoes", "id" | "server_seed" | "server_seed_hash">>(
        em,
        `SELECT id, server_seed, server_seed_hash FROM table_shoes WHERE table_id = $1 AND finished_at IS NOT NULL ORDER BY finished_at DESC LIMIT 1`,
        [tableId],
      ),
    );
    return row ? { id: row.id, serverSeed: row.server_seed, serverSeedHash: row.server_seed_hash } : null;
  }

  /**
   * Settles the open round of a shoe whose process is gone, by the restart rule, and finishes the shoe
   * (its seed is revealed): a round still taking bets is void and every bet refunded; a dealt round is
   * played to its end with the default action for every seat still to act (insurance declined, each
   * hand left stands: never a coin staked), recorded like any action; the dealer plays and every bet is
   * settled, each through the ledger at most once. Only a shoe whose lease has run out is taken (or,
   * with `own`, a shoe of this process that is closing), and taking it renews the lease for this
   * process, so two processes do not settle the same round at once. Safe to repeat.
   */
  async recover(shoeId: string, own = false): Promise<boolean> {
    const claimed = await this.db.run((em) =>
      sqlRows(
        em,
        `UPDATE table_shoes SET owner = $2, lease_until = now() + $3 * interval '1 millisecond'
          WHERE id = $1 AND ${LIVE} AND (lease_until < now() OR ($4 AND owner = $2)) RETURNING id`,
        [shoeId, this.owner, this.settings.leaseMs, own],
      ),
    );
    if (claimed.length === 0) return false;
    await this.settleOpenRound(shoeId, own ? "table" : "restart");
    return this.finishShoe(shoeId, own ? "closed" : "restart");
  }

  /** The shoe's open round settled by the restart rule (see recover); nothing when none is open. */
  async settleOpenRound(shoeId: string, by: "table" | "restart"): Promise<void> {
    const loaded = await this.load(shoeId);
    if (!loaded) return;
    // What to do is decided by the round machine's restart rule, from the record alone.
    const plan = restartPlan(loaded.shoe, loaded.rounds);
    if (plan.kind === "none") return;
    if (plan.kind === "void") {
      for (const betId of plan.refund) await this.money.refundTableBet(betId);
      await this.closeRound(plan.roundId, by);
      return;
    }
    if (plan.added.length > 0) {
      const updated = await this.db.run((em) =>
        sqlRows(
          em,
          `UPDATE table_rounds SET actions = actions || $3::jsonb WHERE id = $1 AND phase = 'playing' AND jsonb_array_length(actions) = $2 RETURNING id`,
          [plan.roundId, plan.recorded, JSON.stringify(plan.added)],
        ),
      );
      if (updated.length === 0) throw new Error(`round ${plan.roundId} changed while it was being settled`);
    }
    for (const { betId, settlement } of plan.settle) await this.money.settleTableBet(betId, settlement, by);
    await this.closeRound(plan.roundId, by);
  }

  /** Every live shoe whose lease has run out, settled by the restart rule; the number settled. */
  async recoverStale(): Promise<number> {
    const stale = await this.db.run((em) =>
      sqlRows<Row<"table_shoes", "id">>(em, `SELECT id FROM table_shoes WHERE ${LIVE} AND lease_until < now()`),
    );
    let settled = 0;
    for (const shoe of stale) if (await this.recover(shoe.id)) settled += 1;
    return settled;
  }

  /** The active bets of a round as stored. */
  async bets(roundId: string): Promise<StoredTableBet[]> {
    const rows = await this.db.run((em) =>
      sqlRows<Row<"table_bets">>(em, `SELECT * FROM table_bets WHERE round_id = $1 ORDER BY seat`, [roundId]),
    );
    return rows.map(toBet);
  }
}
