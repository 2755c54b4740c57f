import { randomBytes, randomUUID } from "node:crypto";
import { sha256Hex } from "@casino/common";
import type { SeatSeed } from "@casino/common/games/shoe";
import type { HandResult, HandStart, RecordedHoldemAction } from "@casino/common/games/holdem/index";
import type { HoldemHandRecordAnswer } from "@casino/common/holdem-table";
import type { Database } from "../platform/db/database";
import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import type { HoldemMoney } from "./holdem-money";

const LIVE = `closed_at IS NULL`;

/**
 * The Hold'em tables in the database: a table's row and its lease, each hand's seeds and start (written
 * before the hand is dealt), and the restart rule for a table whose process went away.
 *
 * A table belongs to the process whose room runs it (`owner`) for as long as that process renews its
 * lease. When the lease runs out (the process stopped), the recovery sweep settles the table by the
 * restart rule (docs/architecture/holdem.md, "Restart"): the hand being played is void, which gives
 * every bet back to its stack, since the stacks are written only when a hand is over; then every seat
 * is cashed out to its player's balance and the table is closed.
 */
export class HoldemStore {
  /** This process: the owner written on the tables it runs. */
  readonly owner = randomUUID();

  /** Makes each hand's server seed: 32 random bytes as hex. */
  newServerSeed: () => string = () => randomBytes(32).toString("hex");

  constructor(
    private readonly db: Database,
    private readonly money: HoldemMoney,
    private readonly leaseMs: number,
  ) {}

  /** A new table of `scope` (`instance:<id>` or `public`), leased by this process; answers its id. */
  async openTable(scope: string): Promise<string> {
    const [row] = await this.db.run((em) =>
      sqlRows<Row<"holdem_tables", "id">>(
        em,
        `INSERT INTO holdem_tables (scope, owner, lease_until) VALUES ($1, $2, now() + $3 * interval '1 millisecond') RETURNING id`,
        [scope, this.owner, this.leaseMs],
      ),
    );
    return row!.id;
  }

  /** Renews this process's lease on the table; false when the table is no longer this process's. */
  async renewLease(tableId: string): Promise<boolean> {
    const rows = await this.db.run((em) =>
      sqlRows<Row<"holdem_tables", "id">>(
        em,
        `UPDATE holdem_tables SET lease_until = now() + $3 * interval '1 millisecond' WHERE id = $1 AND owner = $2 AND ${LIVE} RETURNING id`,
        [tableId, this.owner, this.leaseMs],
      ),
    );
    return rows.length > 0;
  }

  /** The active client seed of each player (the seed they would play their next round of a game with). */
  async clientSeeds(playerIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db.run((em) =>
      sqlRows<Row<"fairness_seeds", "player_id" | "client_seed">>(
        em,
        `SELECT player_id, client_seed FROM fairness_seeds WHERE player_id = ANY($1::uuid[]) AND active`,
        [[...playerIds]],
      ),
    );
    return new Map(rows.map((r) => [r.player_id, r.client_seed]));
  }

  /**
   * Records a hand before it is dealt: its server seed (whose hash was shown), the seats' seeds and its
   * start. A hand of the table still open is one whose result could not be written: it is void (the
   * room kept the stacks it started with), in the same transaction.
   */
  async openHand(tableId: string, serverSeed: string, seeds: readonly SeatSeed[], start: Omit<HandStart, "deck">): Promise<string> {
    return this.db.transaction(async (em) => {
      await sqlRows(em, `UPDATE holdem_hands SET phase = 'void', ended_at = now() WHERE table_id = $1 AND phase = 'playing'`, [tableId]);
      const [row] = await sqlRows<Row<"holdem_hands", "id">>(
        em,
        `INSERT INTO holdem_hands (table_id, hand_number, server_seed, server_seed_hash, seeds, start, phase)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, 'playing') RETURNING id`,
        [tableId, start.handNumber, serverSeed, sha256Hex(serverSeed), JSON.stringify(seeds), JSON.stringify(start)],
      );
      return row!.id;
    });
  }

  /**
   * A finished hand's public record with its server seed revealed (what the verifier deals again), or
   * why there is none: no such hand, or a hand still being played (its seed is secret until it is over)
   * or made void (never finished: nothing to verify).
   */
  async revealedHand(handId: string): Promise<HoldemHandRecordAnswer | "unknown" | "playing" | "void"> {
    const [row] = await this.db.run((em) =>
      sqlRows<Row<"holdem_hands", "id" | "server_seed" | "server_seed_hash" | "seeds" | "start" | "phase" | "actions" | "result">>(
        em,
        `SELECT id, server_seed, server_seed_hash, seeds, start, phase, actions, result FROM holdem_hands WHERE id = $1`,
        [handId],
      ),
    );
    if (!row) return "unknown";
    if (row.phase !== "complete") return row.phase;
    const result = row.result as HandResult;
    return {
      handId: row.id,
      serverSeed: row.server_seed,
      serverSeedHash: row.server_seed_hash,
      seeds: row.seeds as SeatSeed[],
      start: row.start as Omit<HandStart, "deck">,
      actions: (row.actions as RecordedHoldemAction[]).map((a) => ({ seat: a.seat, action: a.action })),
      // The hole cards are the verifier's to deal again from the seeds; the table recorded the board and stacks.
      outcome: { board: result.board, stacks: result.stacks },
    };
  }

  /** A hand that will not be finished: void, its bets back in the stacks (which it never changed). */
  async voidHand(handId: string): Promise<void> {
    await this.db.run((em) =>
      sqlRows(em, `UPDATE holdem_hands SET phase = 'void', ended_at = now() WHERE id = $1 AND phase = 'playing'`, [handId]),
    );
  }

  /**
   * Closes a table by the restart rule: its unfinished hand void, every seat cashed out (each through
   * the ledger, once), then the table marked closed. `by`: the room closing it, or the recovery sweep.
   */
  async closeTable(tableId: string, by: "closed" | "restart"): Promise<void> {
    await this.db.run((em) =>
      sqlRows(em, `UPDATE holdem_hands SET phase = 'void', ended_at = now() WHERE table_id = $1 AND phase = 'playing'`, [tableId]),
    );
    const seats = await this.db.run((em) =>
      sqlRows<Row<"holdem_seats", "id">>(em, `SELECT id FROM holdem_seats WHERE table_id = $1 AND left_at IS NULL ORDER BY seat`, [
        tableId,
      ]),
    );
    for (const seat of seats) await this.money.cashOut(seat.id);
    await this.db.run((em) =>
      sqlRows(em, `UPDATE holdem_tables SET closed_at = now(), closed_by = $2 WHERE id = $1 AND ${LIVE}`, [tableId, by]),
    );
  }

  /** Every live table whose lease has run out, settled by the restart rule and closed; the number closed. */
  async recoverStale(): Promise<number> {
    const stale = await this.db.run((em) =>
      sqlRows<Row<"holdem_tables", "id">>(em, `SELECT id FROM holdem_tables WHERE ${LIVE} AND lease_until < now()`),
    );
    let closed = 0;
    for (const { id } of stale) {
      // Taken with a lease of this process's, so two sweeps never settle one table together.
      const [taken] = await this.db.run((em) =>
        sqlRows<Row<"holdem_tables", "id">>(
          em,
          `UPDATE holdem_tables SET owner = $2, lease_until = now() + $3 * interval '1 millisecond'
            WHERE id = $1 AND ${LIVE} AND lease_until < now() RETURNING id`,
          [id, this.owner, this.leaseMs],
        ),
      );
      if (!taken) continue;
      await this.closeTable(id, "restart");
      closed++;
    }
    return closed;
  }
}
