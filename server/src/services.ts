import type { Presence } from "@colyseus/core";
import type { Redis } from "ioredis";
import type { Config } from "./config";
import type { Database } from "./db/database";
import type { SessionTokens } from "./auth/session";
import type { DiscordOAuth } from "./auth/discord";
import type { Ledger } from "./ledger/ledger";
import type { Players } from "./players/players";
import type { PlayerEvents } from "./rooms/player-events";
import type { Seeds } from "./fairness/seeds";
import type { Leaderboards } from "./leaderboard/leaderboards";
import type { Progress } from "./progress/progress";
import type { Guilds } from "./players/guilds";
import type { Instances } from "./players/instances";

/** Everything the REST routers and rooms need, built once at boot. */
export interface Services {
  config: Config;
  db: Database;
  redis: Redis;
  presence: Presence;
  tokens: SessionTokens;
  discord: DiscordOAuth;
  ledger: Ledger;
  players: Players;
  seeds: Seeds;
  events: PlayerEvents;
  leaderboards: Leaderboards;
  progress: Progress;
  guilds: Guilds;
  instances: Instances;
}
