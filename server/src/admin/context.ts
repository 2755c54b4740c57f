import type { Presence } from "@colyseus/core";
import type { Redis } from "ioredis";
import { logSettings, type Config } from "../platform/config";
import { openDatabase, type Database } from "../platform/db/database";
import { BOARD_COMMAND_TIMEOUT_MS, openRedis } from "../platform/redis/redis";
import { QuietRedisPresence } from "../platform/redis/presence";
import { Log } from "../platform/log";
import { Leaderboards } from "../leaderboard/leaderboards";
import { Guilds } from "../core/players/guilds";
import { Instances } from "../core/players/instances";
import { DiscordOAuth } from "../core/auth/discord";
import { ACCOUNT_CHANGES_CHANNEL, type AccountChange } from "../core/players/closed-accounts";
import type { PlayerStatus } from "@casino/common";
import { Announcements } from "../core/ledger/engine/index";
import { balanceToPlayer } from "../announced";
import { playerChannel } from "../core/events/player-events";

/**
 * What an operator's command works with: the database, who the operator is, and, when the deployment
 * has Redis, the channels that reach the running servers (account changes, balance events) and the
 * boards. Without Redis the servers learn of a change from PostgreSQL within seconds, and their own
 * boards are repaired within a minute.
 */
export interface AdminContext {
  db: Database;
  operator: string;
  log: Log;
  /**
   * What the command's commits did (core/ledger/engine/announcements.ts): with Redis, balances go to the
   * players' event channels, so their open connections on every server hear them; closing the context
   * waits for those to be sent.
   */
  announcements: Announcements;
  /** Present with REDIS_URL. */
  live?: {
    presence: Presence;
    leaderboards: Leaderboards;
  };
}

/** Opens what the commands need, from the same configuration as the server. */
export async function openAdminContext(config: Config, operator: string): Promise<{ ctx: AdminContext; close: () => Promise<void> }> {
  // The command's answer is on standard output; what the log says goes to standard error.
  const log = new Log({ ...logSettings(config), stderr: true });
  const db = await openDatabase(config.databaseUrl, config.dataDir, config.dbTimeouts, config.dbPoolSize, config.transactionPooler);
  const clients: Redis[] = [];
  let live: AdminContext["live"];
  if (config.redisUrl) {
    const boards = openRedis(config.redisUrl, log, "admin", { commandTimeoutMs: BOARD_COMMAND_TIMEOUT_MS });
    const pubsub = openRedis(config.redisUrl, log, "admin-presence");
    clients.push(boards, pubsub);
    const presence = new QuietRedisPresence(pubsub);
    live = {
      presence,
      leaderboards: new Leaderboards(
        db,
        boards,
        presence,
        new Guilds(db),
        new Instances(db, new DiscordOAuth(config.discord)),
        config.specialBadges,
        config.sessionSecret,
        log,
      ),
    };
  }
  const announcements = new Announcements(log);
  if (live) {
    const presence = live.presence;
    announcements.subscribe(balanceToPlayer((playerId, event) => presence.publish(playerChannel(playerId), event)));
  }
  return {
    ctx: { db, operator, log, live, announcements },
    close: async () => {
      await announcements.idle();
      await live?.presence.shutdown();
      for (const client of clients) client.disconnect();
      await db.close();
    },
  };
}

/** After a status change has committed: every server hears it now (they also read it from PostgreSQL every few seconds). */
export async function announceAccountChange(ctx: AdminContext, playerId: string, status: PlayerStatus): Promise<void> {
  const change: AccountChange = { playerId, status };
  await ctx.live?.presence.publish(ACCOUNT_CHANGES_CHANNEL, change);
}

/**
 * Rebuilds the boards from PostgreSQL after a player joined or left the ranked players, and answers how
 * many are ranked (null without Redis: the servers' own repair check rebuilds their boards). A build that
 * another process had started before the change may not have seen it: then this process builds again.
 */
export async function rebuildBoards(ctx: AdminContext): Promise<{ players: number; ms: number } | null> {
  const boards = ctx.live?.leaderboards;
  if (!boards) return null;
  for (let attempt = 0; ; attempt++) {
    const report = await boards.rebuild();
    if (report.built || attempt >= 2) return { players: report.players, ms: report.ms };
  }
}
