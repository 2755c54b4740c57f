import "reflect-metadata";
import { openDatabase, type Database } from "../platform/db/database";
import { Ledger } from "../ledger";
import { Announcements } from "../core/ledger/engine/index";
import { Players } from "../core/players/players";
import { SessionTokens } from "../core/auth/session";
import { Log } from "../platform/log";

/** What `signLines` gives each line's maker: the server's player code, the token signer and the database. */
interface Signing {
  db: Database;
  players: Players;
  tokens: SessionTokens;
}

/**
 * The `count` lines `line` makes, `concurrency` at a time (16 by default), against the deployment's
 * database through the server's own player and ledger code, with its session secret; `onProgress`
 * every 1,000 lines.
 */
async function signLines(
  databaseUrl: string,
  sessionSecret: string,
  count: number,
  options: { concurrency?: number; ttlHours?: number; onProgress?: (done: number) => void },
  line: (i: number, signing: Signing) => Promise<string>,
): Promise<string[]> {
  const db = await openDatabase(databaseUrl, "memory://");
  try {
    const signing: Signing = {
      db,
      players: new Players(db, new Ledger(db, new Log(), new Announcements(new Log())), new Map()),
      tokens: new SessionTokens(sessionSecret, Math.round((options.ttlHours ?? 24) * 3600)),
    };
    const out: string[] = new Array(count);
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: Math.min(count, options.concurrency ?? 16) }, async () => {
        for (let i = next++; i < count; i = next++) {
          out[i] = await line(i, signing);
          if (++done % 1000 === 0) options.onProgress?.(done);
        }
      }),
    );
    return out;
  } finally {
    await db.close();
  }
}

/**
 * Creates `count` guests directly in a deployment's database, through the server's own player and
 * ledger code (each gets the starting grant, like `POST /api/guest`), and signs a session token for
 * each with the deployment's secret. For load tests larger than the REST rate limit lets a single
 * machine create (600 requests a minute): it needs what an operator has, the database URL and
 * SESSION_SECRET, and adds nothing to the server.
 */
export function createGuestTokens(
  databaseUrl: string,
  sessionSecret: string,
  count: number,
  options: { concurrency?: number; ttlHours?: number; onProgress?: (done: number) => void } = {},
): Promise<string[]> {
  return signLines(databaseUrl, sessionSecret, count, options, async (i, { players, tokens }) => {
    const player = await players.createGuest(`Load ${i + 1}`);
    return tokens.issue({ playerId: player.id, discordId: player.discordId, guest: true });
  });
}

/**
 * Creates `count` players as Discord would (a Discord-like id each, not guests), seats them in activity
 * instances of `instanceSize` (a verified membership row, as a launch in a Discord call writes), and signs
 * a session token for each. Each line of the answer is `<token> <instance id>`: the load tool's players
 * that need an instance (the `reactions` scenario) join the together room of theirs.
 */
export function createInstanceTokens(
  databaseUrl: string,
  sessionSecret: string,
  count: number,
  options: { instanceSize: number; concurrency?: number; ttlHours?: number; onProgress?: (done: number) => void },
): Promise<string[]> {
  // One run's ids: 13 digits of its start and 5 of the player's number, a snowflake's 18 digits.
  const run = String(Date.now()).padStart(13, "0");
  return signLines(databaseUrl, sessionSecret, count, options, async (i, { db, players, tokens }) => {
    const discordId = `${run}${String(i).padStart(5, "0")}`;
    const player = await players.upsertDiscordUser(discordId, `Load member ${i + 1}`, null);
    const instanceId = `load-${run}-${Math.floor(i / options.instanceSize) + 1}`;
    await db.run((em) =>
      em.query(`INSERT INTO activity_instance_members (instance_id, player_id, verified) VALUES ($1, $2, true) ON CONFLICT DO NOTHING`, [
        instanceId,
        player.id,
      ]),
    );
    return `${await tokens.issue({ playerId: player.id, discordId: player.discordId, guest: false })} ${instanceId}`;
  });
}
