import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { RACE_JOIN_WINDOW_MS, describeZodError } from "@casino/common";
import type { DatabaseTimeouts } from "./db/data-source";
import type { TransactionPooler } from "./db/pooler";
import type { LogFormat, LogLevel } from "./log";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = z.preprocess(emptyToUndefined, z.string().optional());
const positiveInt = (fallback: number) => z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(fallback));

/**
 * Which proxies to believe about the client's address (X-Forwarded-For), as Express's "trust proxy":
 * "false" (default: the socket's peer is the client), a number of hops, or a comma-separated list of
 * addresses, subnets or the names loopback, linklocal, uniquelocal. "true" is refused: it would let
 * any client choose its own address, and with it its own per-IP rate limit.
 */
const trustProxy = z.string().transform((text, ctx): false | number | string => {
  const value = text.trim();
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === "true") {
    ctx.addIssue({ code: "custom", message: "must be the number of proxies in front of the server or their addresses, not true" });
    return z.NEVER;
  }
  const entries = value.split(",").map((entry) => entry.trim());
  const named = new Set(["loopback", "linklocal", "uniquelocal"]);
  for (const entry of entries) {
    if (!named.has(entry) && !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(entry)) {
      ctx.addIssue({ code: "custom", message: `"${entry}" is not an address, a subnet, loopback, linklocal or uniquelocal` });
      return z.NEVER;
    }
  }
  return entries.join(",");
});

/** Browser origins allowed to call the API besides the app's own and Discord's: "https://a.example, https://b.example". */
function parseOrigins(text: string, ctx: z.RefinementCtx): string[] {
  const origins: string[] = [];
  for (const entry of text
    .split(",")
    .map((e) => e.trim())
    .filter(Boolean)) {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      /* reported below */
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== entry.replace(/\/$/, "")) {
      ctx.addIssue({ code: "custom", message: `"${entry}" is not an origin like https://example.com` });
      return z.NEVER;
    }
    origins.push(url.origin);
  }
  return origins;
}

const databaseUrl = z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL");
const sessionSecret = z.string().min(32, "must be at least 32 characters");

const envSchema = z
  .object({
    PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(2567)),
    HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
    DATABASE_URL: z.preprocess(emptyToUndefined, databaseUrl.optional()),
    DATABASE_POOLER: z.preprocess(emptyToUndefined, z.enum(["transaction"]).optional()),
    DATABASE_DIRECT_URL: z.preprocess(emptyToUndefined, databaseUrl.optional()),
    REDIS_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^rediss?:\/\//, "must be a redis:// URL")
        .optional(),
    ),
    SESSION_SECRET: z.preprocess(emptyToUndefined, sessionSecret.optional()),
    SESSION_TTL_HOURS: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number()
        .positive()
        .default(24 * 7),
    ),
    DISCORD_CLIENT_ID: optionalText,
    DISCORD_CLIENT_SECRET: optionalText,
    DISCORD_API_BASE: z.preprocess(emptyToUndefined, z.url().default("https://discord.com/api")),
    DISCORD_BOT_TOKEN: optionalText,
    DISCORD_PUBLIC_KEY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, "must be the application's public key: 64 hex characters")
        .optional(),
    ),
    SPECIAL_BADGES: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default("{}")
        .transform((text, ctx) => {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            ctx.addIssue({ code: "custom", message: "must be JSON" });
            return z.NEVER;
          }
        })
        .pipe(z.record(z.string().regex(/^\d+$/, "keys must be Discord user ids"), z.string().min(1).max(32))),
    ),
    BET_RATE_PER_SECOND: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(20)),
    SEED_CHANGES_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(10)),
    DAILY_SPINS_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(10)),
    REACTIONS_PER_SECOND: z.preprocess(emptyToUndefined, z.coerce.number().positive().default(1)),
    REACTION_BURST: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(3)),
    INSTANCE_REACTIONS_PER_SECOND: z.preprocess(emptyToUndefined, z.coerce.number().positive().default(10)),
    INSTANCE_REACTION_BURST: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(20)),
    ROOM_MAX_MESSAGES_PER_SECOND: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().optional()),
    TRUST_PROXY: z.preprocess(emptyToUndefined, trustProxy.default(false)),
    CORS_ORIGINS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default("")
        .transform((text, ctx) => parseOrigins(text, ctx)),
    ),
    SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(10_000)),
    HTTP_KEEP_ALIVE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1_000).max(120_000).default(65_000)),
    CLIENT_DIST: z.preprocess(emptyToUndefined, z.string().default("client/dist")),
    FRAME_ANCESTORS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .default("")
        .transform((text) => text.split(/\s+/).filter(Boolean))
        .pipe(z.array(z.string().regex(/^https?:\/\/[^/\s]+$/, "must be origins like https://example.com, separated by spaces"))),
    ),
    DB_CONNECT_TIMEOUT_MS: positiveInt(5000),
    DB_STATEMENT_TIMEOUT_MS: positiveInt(5000),
    DB_QUERY_TIMEOUT_MS: positiveInt(6000),
    DB_HEALTH_TIMEOUT_MS: positiveInt(1000),
    DB_POOL_SIZE: positiveInt(20),
    PROCESSED_REQUEST_RETENTION_DAYS: positiveInt(7),
    ABANDONED_ROUND_MINUTES: positiveInt(60),
    GUEST_ARCHIVE_DAYS: positiveInt(30),
    RETENTION_SWEEP_SECONDS: positiveInt(60),
    // Off unless set: the ledger and the rounds are kept forever. At least 2: the request-id lookup reads
    // the current and the previous month's partitions (docs/scaling.md section 6).
    ARCHIVE_AFTER_MONTHS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(2).max(1200).optional()),
    ARCHIVE_DIR: optionalText,
    CRASH_BETTING_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(60_000).default(5_000)),
    CRASH_BUSTED_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(60_000).default(3_000)),
    CRASH_TICK_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(5).max(1_000).default(50)),
    CRASH_CURVE_RATE: z.preprocess(emptyToUndefined, z.coerce.number().positive().max(1).default(0.00006)),
    CRASH_CHAIN_LENGTH: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(10_000_000).default(10_000)),
    CRASH_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(500).max(600_000).default(10_000)),
    TABLE_BETTING_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(120_000).default(10_000)),
    TABLE_TURN_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(50).max(120_000).default(15_000)),
    TABLE_SETTLED_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(60_000).default(4_000)),
    TABLE_RECONNECT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(600).default(30)),
    TABLE_LEASE_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(500).max(600_000).default(10_000)),
    RACE_JOIN_WINDOW_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(100).max(600_000).default(RACE_JOIN_WINDOW_MS)),
    SKILL_REAL_TIME_CHECK: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("true")),
    API_RATE_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(600)),
    PLAYER_RATE_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(300)),
    NODE_ENV: optionalText,
    LOG_FORMAT: z.preprocess(emptyToUndefined, z.enum(["json", "pretty"]).optional()),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(["debug", "info", "warn", "error"]).default("info")),
    METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  })
  .refine((e) => e.DB_QUERY_TIMEOUT_MS > e.DB_STATEMENT_TIMEOUT_MS, {
    path: ["DB_QUERY_TIMEOUT_MS"],
    message: "must be longer than DB_STATEMENT_TIMEOUT_MS, so the server cancels a slow statement before the client gives up on it",
  })
  .refine((e) => !e.DATABASE_POOLER || (e.DATABASE_URL && e.DATABASE_DIRECT_URL), {
    path: ["DATABASE_DIRECT_URL"],
    message: "must be set with DATABASE_POOLER (PostgreSQL's own URL, for the migrations), as must DATABASE_URL (the pooler's)",
  })
  .refine((e) => e.PROCESSED_REQUEST_RETENTION_DAYS * 24 * 60 > e.ABANDONED_ROUND_MINUTES, {
    path: ["PROCESSED_REQUEST_RETENTION_DAYS"],
    message: "must be longer than ABANDONED_ROUND_MINUTES, so a round is settled before the answers of its actions are forgotten",
  });

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Set when `databaseUrl` leads through a transaction pooler (`DATABASE_POOLER=transaction`). */
  transactionPooler?: TransactionPooler;
  redisUrl?: string;
  sessionSecret: string;
  sessionTtlSeconds: number;
  /** `botToken` enables the server-side activity-instance lookup. */
  /** publicKey: the application's Ed25519 key (hex); with it, Discord sessions must come through Discord's proxy. */
  discord: { clientId?: string; clientSecret?: string; apiBase: string; botToken?: string; publicKey?: string };
  /** Discord user id → special badge. A Map: boards look up every entry's id, most of them misses. */
  specialBadges: ReadonlyMap<string, string>;
  betRatePerSecond: number;
  /** Seed rotations and client-seed changes a minute per player (also the burst). */
  seedChangesPerMinute: number;
  /** Daily-spin attempts a minute per player (also the burst); a spin still pays once a day. */
  dailySpinsPerMinute: number;
  /** Reactions a second per player, in bursts of up to `reactionBurst`; the same for all the members of an instance together. */
  reactionsPerSecond: number;
  reactionBurst: number;
  instanceReactionsPerSecond: number;
  instanceReactionBurst: number;
  /** Messages a second on one connection before Colyseus drops it: a backstop above every per-player limit. */
  roomMaxMessagesPerSecond: number;
  /** Express's "trust proxy" setting: which X-Forwarded-For hops to believe. */
  trustProxy: false | number | string;
  /** Extra browser origins allowed by CORS. */
  corsOrigins: string[];
  /** How long SIGTERM waits for requests and room messages in flight. */
  shutdownTimeoutMs: number;
  /**
   * How long the server keeps an idle HTTP connection open. Longer than what a client or proxy in front
   * waits before it closes one itself, so the closing is theirs: a connection the server closes while a
   * client picks it up for its next request fails that request.
   */
  httpKeepAliveMs: number;
  clientDist: string;
  /** Origins allowed to frame the client besides Discord's (e.g. a local stand-in for Discord's host page). */
  frameAncestors: string[];
  dbTimeouts: DatabaseTimeouts;
  /** PostgreSQL connections in this process's pool. */
  dbPoolSize: number;
  retention: RetentionConfig;
  archive: ArchiveConfig;
  crash: CrashSettings;
  table: TableSettings;
  race: RaceSettings;
  /** Refuse a skill log that claims more game time than has passed since its round started. */
  skillRealTimeCheck: boolean;
  /** REST requests a minute per IP address, and per player on the per-player resources. */
  apiRatePerMinute: number;
  playerRatePerMinute: number;
  /** JSON lines (the default with NODE_ENV=production) or readable lines (otherwise). */
  logFormat: LogFormat;
  logLevel: LogLevel;
  /** Bearer token of `GET /metrics`; without one the endpoint is off. */
  metricsToken?: string;
}

/** The retention rules (docs/architecture/retention.md). */
export interface RetentionConfig {
  /** Stored answers of requests are kept this long, then pruned. */
  processedRequestDays: number;
  /** An open round with no action for this long is settled by its game's default action. */
  abandonedRoundMinutes: number;
  /** A guest with no play, no join and no open round for this long is archived. */
  guestArchiveDays: number;
  /** How often each process runs the sweep. */
  sweepSeconds: number;
}

/** The archival of old monthly partitions (`npm run archive`, docs/operations.md). */
export interface ArchiveConfig {
  /** A month is archived once its partitions end this many whole months before the current month; null: never (the default). */
  afterMonths: number | null;
  /** Where the archived months' files go: `ARCHIVE_DIR`, else `<DATA_DIR>/archive`; null when neither is on disk. */
  dir: string | null;
}

/** The shared crash room's timing (see docs/architecture/crash-room.md). */
export interface CrashSettings {
  bettingMs: number;
  bustedMs: number;
  tickMs: number;
  /** m(t) = e^(curveRate · t), t in milliseconds. */
  curveRate: number;
  /** Games per hash chain; a new chain (a new published commitment) follows an exhausted one. */
  chainLength: number;
  /** How long a process's claim on a running round lasts without renewal before another may settle it. */
  leaseMs: number;
}

/** The shared blackjack table's timing (see docs/architecture/blackjack-table.md). */
/**
 * An activity instance's race (docs/architecture/playing-together.md, "A race"): its join window,
 * RACE_JOIN_WINDOW_MS of common unless a test shortens it for servers on the real clock.
 */
export interface RaceSettings {
  joinWindowMs: number;
}

export interface TableSettings {
  /** The betting window (it closes early once every seated player has bet and pressed Ready). */
  bettingMs: number;
  /** A seat's time to act before it is stood for. */
  turnMs: number;
  /** How long a settled round stays on the table before the next betting window. */
  settledMs: number;
  /** How long a dropped player keeps the seat. */
  reconnectSeconds: number;
  /** How long a process's claim on a shoe lasts without renewal before another may settle its round. */
  leaseMs: number;
}

export class ConfigError extends Error {}

/** The DATA_DIR value that keeps embedded data in memory only. */
export const IN_MEMORY = "memory://";

/** Parses the environment once; a bad value is a ConfigError naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) throw new ConfigError(`Invalid configuration: ${describeZodError(parsed.error)}`);
  const e = parsed.data;
  // "memory://" keeps PGlite in memory and the session secret in the process: nothing is written to disk.
  const dataDir = e.DATA_DIR === IN_MEMORY ? IN_MEMORY : resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    ...(e.DATABASE_POOLER && e.DATABASE_DIRECT_URL ? { transactionPooler: { directUrl: e.DATABASE_DIRECT_URL } } : {}),
    redisUrl: e.REDIS_URL,
    sessionSecret: e.SESSION_SECRET ?? keptSecret(dataDir),
    sessionTtlSeconds: Math.round(e.SESSION_TTL_HOURS * 3600),
    discord: {
      clientId: e.DISCORD_CLIENT_ID,
      clientSecret: e.DISCORD_CLIENT_SECRET,
      apiBase: e.DISCORD_API_BASE.replace(/\/$/, ""),
      botToken: e.DISCORD_BOT_TOKEN,
      publicKey: e.DISCORD_PUBLIC_KEY?.toLowerCase(),
    },
    specialBadges: new Map(Object.entries(e.SPECIAL_BADGES)),
    betRatePerSecond: e.BET_RATE_PER_SECOND,
    seedChangesPerMinute: e.SEED_CHANGES_PER_MINUTE,
    dailySpinsPerMinute: e.DAILY_SPINS_PER_MINUTE,
    reactionsPerSecond: e.REACTIONS_PER_SECOND,
    reactionBurst: e.REACTION_BURST,
    instanceReactionsPerSecond: e.INSTANCE_REACTIONS_PER_SECOND,
    instanceReactionBurst: e.INSTANCE_REACTION_BURST,
    // A burst of bets (twice the rate) plus the other messages must never trip the backstop.
    roomMaxMessagesPerSecond: e.ROOM_MAX_MESSAGES_PER_SECOND ?? Math.max(60, 4 * e.BET_RATE_PER_SECOND),
    trustProxy: e.TRUST_PROXY,
    corsOrigins: e.CORS_ORIGINS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    httpKeepAliveMs: e.HTTP_KEEP_ALIVE_MS,
    clientDist: resolve(e.CLIENT_DIST),
    frameAncestors: e.FRAME_ANCESTORS,
    dbTimeouts: {
      connectMs: e.DB_CONNECT_TIMEOUT_MS,
      statementMs: e.DB_STATEMENT_TIMEOUT_MS,
      queryMs: e.DB_QUERY_TIMEOUT_MS,
      healthMs: e.DB_HEALTH_TIMEOUT_MS,
    },
    dbPoolSize: e.DB_POOL_SIZE,
    retention: {
      processedRequestDays: e.PROCESSED_REQUEST_RETENTION_DAYS,
      abandonedRoundMinutes: e.ABANDONED_ROUND_MINUTES,
      guestArchiveDays: e.GUEST_ARCHIVE_DAYS,
      sweepSeconds: e.RETENTION_SWEEP_SECONDS,
    },
    archive: {
      afterMonths: e.ARCHIVE_AFTER_MONTHS ?? null,
      dir: e.ARCHIVE_DIR ? resolve(e.ARCHIVE_DIR) : dataDir === IN_MEMORY ? null : join(dataDir, "archive"),
    },
    crash: {
      bettingMs: e.CRASH_BETTING_MS,
      bustedMs: e.CRASH_BUSTED_MS,
      tickMs: e.CRASH_TICK_MS,
      curveRate: e.CRASH_CURVE_RATE,
      chainLength: e.CRASH_CHAIN_LENGTH,
      leaseMs: e.CRASH_LEASE_MS,
    },
    table: {
      bettingMs: e.TABLE_BETTING_MS,
      turnMs: e.TABLE_TURN_MS,
      settledMs: e.TABLE_SETTLED_MS,
      reconnectSeconds: e.TABLE_RECONNECT_SECONDS,
      leaseMs: e.TABLE_LEASE_MS,
    },
    race: { joinWindowMs: e.RACE_JOIN_WINDOW_MS },
    skillRealTimeCheck: e.SKILL_REAL_TIME_CHECK === "true",
    apiRatePerMinute: e.API_RATE_PER_MINUTE,
    playerRatePerMinute: e.PLAYER_RATE_PER_MINUTE,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === "production" ? "json" : "pretty"),
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
  };
}

/**
 * What a tool acting on a deployment from outside needs (`npm run loadtest:tokens`): the deployment's
 * database URL and session secret, both required (a secret kept in a local data directory would sign
 * tokens the deployment refuses). Behind a transaction pooler the tool goes to PostgreSQL itself
 * (`DATABASE_DIRECT_URL`), as the migrations do: it migrates under an advisory lock, which a pooler in
 * transaction mode does not keep.
 */
export function loadDeploymentAccess(env: NodeJS.ProcessEnv = process.env): { databaseUrl: string; sessionSecret: string } {
  const parsed = z
    .object({
      DATABASE_URL: z
        .preprocess(emptyToUndefined, databaseUrl.optional())
        .pipe(z.string({ message: "the target deployment's URL is required" })),
      DATABASE_DIRECT_URL: z.preprocess(emptyToUndefined, databaseUrl.optional()),
      SESSION_SECRET: z
        .preprocess(emptyToUndefined, sessionSecret.optional())
        .pipe(z.string({ message: "the target deployment's secret is required" })),
    })
    .safeParse(env);
  if (!parsed.success) throw new ConfigError(`Invalid configuration: ${describeZodError(parsed.error)}`);
  return { databaseUrl: parsed.data.DATABASE_DIRECT_URL ?? parsed.data.DATABASE_URL, sessionSecret: parsed.data.SESSION_SECRET };
}

/** PostgreSQL itself, for the one-off tools (migrations, the audit): not through a transaction pooler. */
export const directDatabaseUrl = (config: Config): string | undefined => config.transactionPooler?.directUrl ?? config.databaseUrl;

/** The log's settings as the configuration would choose them, for the lines written before it is read (its own errors). */
export function bootLogSettings(env: NodeJS.ProcessEnv = process.env): { format: LogFormat } {
  const format = env.LOG_FORMAT === "json" || env.LOG_FORMAT === "pretty" ? env.LOG_FORMAT : undefined;
  return { format: format ?? (env.NODE_ENV === "production" ? "json" : "pretty") };
}

/** The log of a process that has read its configuration. */
export const logSettings = (config: Config) => ({ format: config.logFormat, level: config.logLevel, secrets: secretsOf(config) });

/** Everything in the configuration that must never be written to a log. */
export function secretsOf(config: Config): (string | undefined)[] {
  const passwordOf = (url: string | undefined) => {
    if (!url) return undefined;
    try {
      return decodeURIComponent(new URL(url).password) || undefined;
    } catch {
      return undefined;
    }
  };
  return [
    config.sessionSecret,
    config.discord.clientSecret,
    config.discord.botToken,
    config.metricsToken,
    passwordOf(config.databaseUrl),
    passwordOf(config.transactionPooler?.directUrl),
    passwordOf(config.redisUrl),
  ];
}

/** A secret generated once and kept in the data directory, so sessions survive restarts. */
function keptSecret(dataDir: string): string {
  if (dataDir === IN_MEMORY) return randomBytes(48).toString("base64url");
  const file = join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
