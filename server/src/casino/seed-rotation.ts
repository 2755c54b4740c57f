import { seedCommitment, type RotateAnswer } from "@casino/common";
import type { Database } from "../platform/db/database";
import { conflict } from "../platform/errors";
import { newServerSeed } from "../core/seeds";
import { MoneyRequests, markSeen, type Announcements, type Replayable, type WriteBatch } from "../core/ledger/engine/index";

/**
 * Rotating a player's seed pair (core/seeds.ts says what a pair is): a money request like a bet,
 * so it is idempotent by request id, runs under the player's lock after checking that no round is
 * open, and goes into the write batch, which also marks the player seen (a move of 0 coins).
 */
export class SeedRotation {
  private readonly requests: MoneyRequests;

  constructor(db: Database, bus: Announcements) {
    this.requests = new MoneyRequests(db, bus);
  }

  /**
   * Reveals the active server seed and pairs the committed next one with `clientSeed` (the player's, or
   * else the current one: the server seed changes either way, so no stream is ever reused).
   */
  rotate(
    playerId: string,
    requestId: string,
    clientSeed: string | undefined,
    kind: "rotate" | "client-seed" = "rotate",
    origin?: string,
  ): Promise<Replayable<RotateAnswer>> {
    return this.requests.run({ playerId, requestId, kind, body: { clientSeed: clientSeed ?? null }, origin }, async (ctx) => {
      if (ctx.round) throw conflict("Finish your open round before changing seeds", "round_open");
      const next = newServerSeed();
      const nextHash = seedCommitment(next);
      const newClient = clientSeed ?? ctx.seed.clientSeed;
      const revealedAt = new Date();
      promoteNextSeed(ctx.writes, playerId, ctx.seed.id, newClient, next, revealedAt);
      markSeen(ctx);
      const active = { serverSeedHash: ctx.nextServerSeedHash, clientSeed: newClient, nonce: 0, nextServerSeedHash: nextHash };
      // The player's other connections show the new pair from this announcement of the commit.
      ctx.announced.push({ type: "seeds", playerId, active, from: ctx.origin });
      return {
        requestId,
        revealed: {
          serverSeed: ctx.seed.serverSeed,
          serverSeedHash: ctx.seed.serverSeedHash,
          clientSeed: ctx.seed.clientSeed,
          nonces: ctx.seed.nonce,
          revealedAt: revealedAt.toISOString(),
        },
        active,
      };
    });
  }
}

/**
 * Reveals the active seed `activeId`, makes the committed next seed the active one with `clientSeed`,
 * and commits `nextSeed` as the new next seed. The reveal comes first (the promotion reads its
 * RETURNING), so the one-active-seed index never sees two.
 */
function promoteNextSeed(w: WriteBatch, playerId: string, activeId: string, clientSeed: string, nextSeed: string, revealedAt: Date): void {
  const player = w.p(playerId);
  const revealed = w.add(
    `UPDATE fairness_seeds SET active = false, revealed_at = ${w.p(revealedAt)} WHERE id = ${w.p(activeId)} AND active RETURNING id`,
  );
  w.add(
    `INSERT INTO fairness_seeds (player_id, server_seed, server_seed_hash, client_seed)
     SELECT n.player_id, n.server_seed, n.server_seed_hash, ${w.p(clientSeed)} FROM next_server_seeds n, ${revealed} WHERE n.player_id = ${player}`,
  );
  w.add(
    `UPDATE next_server_seeds SET server_seed = ${w.p(nextSeed)}, server_seed_hash = ${w.p(seedCommitment(nextSeed))}, created_at = now()
      WHERE player_id = ${player}`,
  );
}
