import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { describeZodError } from "@casino/common";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalText = z.preprocess(emptyToUndefined, z.string().optional());

const envSchema = z.object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(2567)),
  HOST: z.preprocess(emptyToUndefined, z.string().default("0.0.0.0")),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL").optional(),
  ),
  REDIS_URL: z.preprocess(emptyToUndefined, z.string().regex(/^rediss?:\/\//, "must be a redis:// URL").optional()),
  SESSION_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, "must be at least 32 characters").optional()),
  SESSION_TTL_HOURS: z.preprocess(emptyToUndefined, z.coerce.number().positive().default(24 * 7)),
  DISCORD_CLIENT_ID: optionalText,
  DISCORD_CLIENT_SECRET: optionalText,
  DISCORD_API_BASE: z.preprocess(emptyToUndefined, z.url().default("https://discord.com/api")),
  DISCORD_BOT_TOKEN: optionalText,
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
  CLIENT_DIST: z.preprocess(emptyToUndefined, z.string().default("client/dist")),
  API_RATE_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(600)),
  PLAYER_RATE_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(300)),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  sessionSecret: string;
  sessionTtlSeconds: number;
  /** `botToken` enables the server-side activity-instance lookup. */
  discord: { clientId?: string; clientSecret?: string; apiBase: string; botToken?: string };
  specialBadges: Record<string, string>;
  betRatePerSecond: number;
  clientDist: string;
  /** REST requests a minute per IP address, and per player on the per-player resources. */
  apiRatePerMinute: number;
  playerRatePerMinute: number;
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
    redisUrl: e.REDIS_URL,
    sessionSecret: e.SESSION_SECRET ?? keptSecret(dataDir),
    sessionTtlSeconds: Math.round(e.SESSION_TTL_HOURS * 3600),
    discord: {
      clientId: e.DISCORD_CLIENT_ID,
      clientSecret: e.DISCORD_CLIENT_SECRET,
      apiBase: e.DISCORD_API_BASE.replace(/\/$/, ""),
      botToken: e.DISCORD_BOT_TOKEN,
    },
    specialBadges: e.SPECIAL_BADGES,
    betRatePerSecond: e.BET_RATE_PER_SECOND,
    clientDist: resolve(e.CLIENT_DIST),
    apiRatePerMinute: e.API_RATE_PER_MINUTE,
    playerRatePerMinute: e.PLAYER_RATE_PER_MINUTE,
  };
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
