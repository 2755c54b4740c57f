import type { Presence } from "@colyseus/core";
import type { Redis } from "ioredis";
import type { Store } from "express-rate-limit";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import type { Database } from "../platform/db/database";
import type { Log } from "../platform/log";
import type { Lifecycle } from "../platform/lifecycle";
import type { SessionTokens } from "./auth/session";
import type { DiscordOAuth } from "./auth/discord";
import type { Announcements } from "./ledger/engine/index";
import type { Players } from "./players/players";
import type { StandIns } from "./players/stand-ins";
import type { PlayerEvents } from "./events/player-events";
import type { Seeds } from "./seeds";
import type { RoomLimiter } from "./rooms/rate-limit";
import type { Guilds } from "./players/guilds";
import type { Instances } from "./players/instances";
import type { ClosedAccounts } from "./players/closed-accounts";

/**
 * The services every product builds on, built once at boot: the platform's (configuration, time, the
 * database, Redis, the log) and the core's (sessions, players, seeds, the ledger's announcements, the
 * player event channel). The products' own services join them in `Services` (server/src/services.ts);
 * a room or router takes a `Pick` of these and names its product's services beside them.
 */
export interface CoreServices {
  config: Config;
  /** Time for the shared rooms' rounds and timers: the system clock, or a test's ManualClock. */
  clock: Clock;
  db: Database;
  redis: Redis;
  /** The leaderboards' own connection to the same Redis (not pipelined: see openRedis); `redis` itself on the stand-in. */
  boardsRedis: Redis;
  presence: Presence;
  tokens: SessionTokens;
  discord: DiscordOAuth;
  /** What each commit of the ledger did, told after COMMIT to its subscribers (wired in announced.ts). */
  announcements: Announcements;
  players: Players;
  /** The stand-ins anonymous players are shown under in the shared rooms (core/rooms/room-players.ts). */
  standIns: StandIns;
  seeds: Seeds;
  events: PlayerEvents;
  /** Rate-limited logging: one line per kind of failure and window. */
  log: Log;
  /** Work in flight, and whether new work is still accepted (false once SIGTERM starts the drain). */
  lifecycle: Lifecycle;
  /** Per-player budgets of room messages, shared across processes through Redis. */
  roomLimits: RoomLimiter;
  /** A REST rate-limit store named `name`, shared across processes through Redis (one per limiter). */
  rateLimitStore(name: string): Store;
  guilds: Guilds;
  instances: Instances;
  /** Suspended and erased accounts, for refusing their sessions and closing their connections. */
  closedAccounts: ClosedAccounts;
}
