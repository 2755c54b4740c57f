import "reflect-metadata";
import { openDatabase } from "../db/database";
import { Ledger } from "../ledger/ledger";
import { Announcements } from "../ledger/engine/index";
import { Players } from "../players/players";
import { SessionTokens } from "../auth/session";
import { Log } from "../log";

/**
 * Creates `count` guests directly in a deployment's database, through the server's own player and
 * ledger code (each gets the starting grant, like `POST /api/guest`), and signs a session token for
 * each with the deployment's secret. For load tests larger than the REST rate limit lets a single
 * machine create (600 requests a minute): it needs what an operator has, the database URL and
 * SESSION_SECRET, and adds nothing to the server.
 */
export async function createGuestTokens(
  databaseUrl: string,
  sessionSecret: string,
  count: number,
  options: { concurrency?: number; ttlHours?: number; onProgress?: (done: number) => void } = {},
): Promise<string[]> {
  const db = await openDatabase(databaseUrl, "memory://");
  try {
    const players = new Players(db, new Ledger(db, new Log(), new Announcements(new Log())), new Map());
    const tokens = new SessionTokens(sessionSecret, Math.round((options.ttlHours ?? 24) * 3600));
    const out: string[] = new Array(count);
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: Math.min(count, options.concurrency ?? 16) }, async () => {
        for (let i = next++; i < count; i = next++) {
          const player = await players.createGuest(`Load ${i + 1}`);
          out[i] = await tokens.issue({ playerId: player.id, discordId: player.discordId, guest: true });
          if (++done % 1000 === 0) options.onProgress?.(done);
        }
      }),
    );
    return out;
  } finally {
    await db.close();
  }
}
