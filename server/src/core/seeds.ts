import { randomBytes } from "node:crypto";
import type { EntityManager } from "typeorm";
import { seedCommitment, type ActiveSeedView, type RevealedSeed, type RotateAnswer } from "@casino/common";
import type { Row } from "../platform/db/rows";
import { sqlRows } from "../platform/db/sql";
import type { Database } from "../platform/db/database";
import { AppError, notFound } from "../platform/errors";
import { lockPlayer } from "./ledger/engine/index";

export type { ActiveSeedView, RevealedSeed, RotateAnswer };

export const newServerSeed = (): string => randomBytes(32).toString("hex");
/** The server's own client seed, for a player whose client sent none. */
export const newClientSeed = (): string => randomBytes(8).toString("hex");

/**
 * Seed pairs with pre-commitment (game-rules B1, B4). A player always has an active pair (the server
 * seed shown only as its SHA-256) and a next server seed, also shown only as its SHA-256, committed
 * before the player chooses the client seed it will serve with. Rotating, or setting a client seed,
 * reveals the active server seed, promotes the committed next one (with the new client seed), and
 * commits a new next seed at once. All of it runs under the player's lock, after checking that no
 * round is open: revealing an open round's seed would reveal its future. The rotation itself is a money
 * request (idempotent by request id, in the write batch): `SeedRotation` in casino/seed-rotation.ts.
 */
export class Seeds {
  constructor(private readonly db: Database) {}

  async active(playerId: string): Promise<ActiveSeedView> {
    const rows = await this.db.run((em) =>
      sqlRows<Row<"fairness_seeds", "server_seed_hash" | "client_seed" | "nonce"> & { next_hash: string }>(
        em,
        `SELECT s.server_seed_hash, s.client_seed, s.nonce, n.server_seed_hash AS next_hash
           FROM fairness_seeds s JOIN next_server_seeds n ON n.player_id = s.player_id
          WHERE s.player_id = $1 AND s.active`,
        [playerId],
      ),
    );
    const row = rows[0];
    if (!row) throw new AppError("no_seed", 500, "No active seed for this player");
    return {
      serverSeedHash: row.server_seed_hash,
      clientSeed: row.client_seed,
      nonce: Number(row.nonce),
      nextServerSeedHash: row.next_hash,
    };
  }

  /**
   * The client seed a browser made, taken as the first client seed of a pair that has never served a
   * bet (nonce 0) of a player who has never rotated. Anything else keeps the pair as it is. Answers
   * whether it was taken.
   */
  adoptFirstClientSeed(playerId: string, clientSeed: string): Promise<boolean> {
    return this.db.transaction(async (em) => {
      const player = await lockPlayer(em, playerId);
      if (!player) throw notFound("Player not found");
      const rows = await sqlRows(
        em,
        `UPDATE fairness_seeds SET client_seed = $2
          WHERE player_id = $1 AND active AND nonce = 0 AND client_seed <> $2
            AND NOT EXISTS (SELECT 1 FROM fairness_seeds r WHERE r.player_id = $1 AND NOT r.active)
          RETURNING id`,
        [playerId, clientSeed],
      );
      return rows.length > 0;
    });
  }

  async revealed(playerId: string, limit = 50): Promise<RevealedSeed[]> {
    const rows = await this.db.run((em) =>
      sqlRows(
        em,
        `SELECT server_seed, server_seed_hash, client_seed, nonce, revealed_at FROM fairness_seeds
          WHERE player_id = $1 AND NOT active ORDER BY revealed_at DESC LIMIT $2`,
        [playerId, limit],
      ),
    );
    return rows.map((r: Record<string, unknown>) => ({
      serverSeed: r.server_seed as string,
      serverSeedHash: r.server_seed_hash as string,
      clientSeed: r.client_seed as string,
      nonces: Number(r.nonce),
      revealedAt: new Date(r.revealed_at as string).toISOString(),
    }));
  }
}

/**
 * The seed rows of a new player: an active pair with `clientSeed` and a committed next server seed.
 * Runs in the player's creating transaction.
 */
export async function insertFirstSeeds(em: EntityManager, playerId: string, clientSeed: string): Promise<void> {
  const active = newServerSeed();
  const next = newServerSeed();
  await sqlRows(
    em,
    `WITH a AS (INSERT INTO fairness_seeds (player_id, server_seed, server_seed_hash, client_seed) VALUES ($1, $2, $3, $4))
     INSERT INTO next_server_seeds (player_id, server_seed, server_seed_hash) VALUES ($1, $5, $6)`,
    [playerId, active, seedCommitment(active), clientSeed, next, seedCommitment(next)],
  );
}
