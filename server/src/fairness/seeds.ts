
import { sqlRows } from "../db/sql";
import type { Database } from "../db/database";
import { conflict, AppError } from "../errors";
import { insertSeed, newClientSeed } from "../ledger/ledger";

export interface ActiveSeedView {
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
}

export interface RevealedSeed {
  serverSeed: string;
  serverSeedHash: string;
  clientSeed: string;
  nonces: number;
  revealedAt: string;
}

/**
 * Seed pairs: the active server seed is never shown, only its hash; rotation reveals it and starts a new
 * pair. Rotation waits for an open round to finish, since revealing its seed would reveal its future.
 */
export class Seeds {
  constructor(private readonly db: Database) {}

  async active(playerId: string): Promise<ActiveSeedView> {
    const rows = await this.db.run((em) =>
      sqlRows(em, `SELECT server_seed_hash, client_seed, nonce FROM fairness_seeds WHERE player_id = $1 AND active`, [playerId]),
    );
    if (rows.length === 0) throw new AppError("no_seed", 500, "No active seed for this player");
    return { serverSeedHash: rows[0].server_seed_hash, clientSeed: rows[0].client_seed, nonce: Number(rows[0].nonce) };
  }

  /** Reveals the active server seed and starts a new pair; a new client seed always comes with a new server seed, so no result repeats. */
  rotate(playerId: string, clientSeed?: string): Promise<{ revealed: RevealedSeed; active: ActiveSeedView }> {
    return this.db.transaction(async (em) => {
      const open = await sqlRows(em, `SELECT 1 FROM open_rounds WHERE player_id = $1`, [playerId]);
      if (open.length > 0) throw conflict("Finish your open round before changing seeds", "round_open");
      const [old] = await sqlRows(em, 
        `UPDATE fairness_seeds SET active = false, revealed_at = now() WHERE player_id = $1 AND active
         RETURNING server_seed, server_seed_hash, client_seed, nonce, revealed_at`,
        [playerId],
      );
      if (!old) throw new AppError("no_seed", 500, "No active seed for this player");
      await insertSeed(em, playerId, clientSeed ?? newClientSeed());
      const [next] = await sqlRows(em, `SELECT server_seed_hash, client_seed, nonce FROM fairness_seeds WHERE player_id = $1 AND active`, [playerId]);
      return {
        revealed: {
          serverSeed: old.server_seed,
          serverSeedHash: old.server_seed_hash,
          clientSeed: old.client_seed,
          nonces: Number(old.nonce),
          revealedAt: new Date(old.revealed_at).toISOString(),
        },
        active: { serverSeedHash: next.server_seed_hash, clientSeed: next.client_seed, nonce: Number(next.nonce) },
      };
    });
  }

  async revealed(playerId: string, limit = 50): Promise<RevealedSeed[]> {
    const rows = await this.db.run((em) =>
      sqlRows(em, 
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

