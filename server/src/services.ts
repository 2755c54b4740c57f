import type { Presence } from "@colyseus/core";
import type { Redis } from "ioredis";
import type { Clock } from "./clock";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { SessionTokens } from "./auth/session";
import type { DiscordOAuth } from "./auth/discord";
import type { Ledger } from "./ledger/ledger";
import type { Announcements } from "./ledger/engine/index";
import type { Players } from "./players/players";
import type { PlayerEvents } from "./rooms/player-events";
import type { Seeds } from "./fairness/seeds";
import type { Retention } from "./ops/retention";
import type { RaceSweep } from "./together/race-sweep";
import type { Store } from "express-rate-limit";
import type { Log } from "./log";
import type { Lifecycle } from "./lifecycle";
import type { RoomLimiter } from "./rooms/rate-limit";
import type { CrashStore } from "./db/crash-store";
import type { TableStore } from "./db/table-store";
import type { HoldemStore } from "./db/holdem-store";
import type { SkillRounds } from "./skill/skill-rounds";
import type { Leaderboards } from "./leaderboard/leaderboards";
import type { Progress } from "./progress/progress";
import type { Guilds } from "./players/guilds";
import type { Instances } from "./players/instances";
import type { ClosedAccounts } from "./players/closed-accounts";
import type { Together } from "./together/together";

/** Everything the REST routers and rooms need, built once at boot. */
export interface Services {
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
  ledger: Ledger;
  /** What each commit of the ledger did, told after COMMIT to its subscribers (wired in announced.ts). */
  announcements: Announcements;
  players: Players;
  seeds: Seeds;
  events: PlayerEvents;
  retention: Retention;
  /** Rate-limited logging: one line per kind of failure and window. */
  log: Log;
  /** Work in flight, and whether new work is still accepted (false once SIGTERM starts the drain). */
  lifecycle: Lifecycle;
  /** Per-player budgets of room messages, shared across processes through Redis. */
  roomLimits: RoomLimiter;
  /** A REST rate-limit store named `name`, shared across processes through Redis (one per limiter). */
  rateLimitStore(name: string): Store;
  crash: CrashStore;
  /** The shared blackjack table's shoes and rounds (its money is the ledger's: table-money.ts). */
  table: TableStore;
  /** The Hold'em tables, their hands and the restart rule (their money is the ledger's: holdem-money.ts). */
  holdem: HoldemStore;
  skill: SkillRounds;
  leaderboards: Leaderboards;
  progress: Progress;
  guilds: Guilds;
  instances: Instances;
  /** Suspended and erased accounts, for refusing their sessions and closing their connections. */
  closedAccounts: ClosedAccounts;
  /** Who is in which activity instance, and the feeds of settled rounds. */
  together: Together;
  /** Finishes the races past their end that no together room finished (every member had left). */
  raceSweep: RaceSweep;
}
