import type { IncomingMessage } from "node:http";
import corsMiddleware from "cors";
import type { Config } from "../../platform/config";

/** Where Discord serves an activity and its client: the activity's own proxy origin and Discord's apps. */
const DISCORD_ORIGINS = [
  "https://discord.com",
  "https://ptb.discord.com",
  "https://canary.discord.com",
  "https://discordapp.com",
  "https://ptb.discordapp.com",
  "https://canary.discordapp.com",
];

/**
 * The browser origins allowed to read our answers: the app's own origin (whatever host it is served
 * under), the activity's `https://<client id>.discordsays.com`, Discord's own origins, and
 * CORS_ORIGINS. Never with credentials: sessions travel as bearer tokens, not cookies.
 */
export function allowedOrigins(config: Config): Set<string> {
  const origins = new Set([...DISCORD_ORIGINS, ...config.corsOrigins]);
  if (config.discord.clientId) origins.add(`https://${config.discord.clientId}.discordsays.com`);
  return origins;
}

export function isAllowedOrigin(origins: Set<string>, origin: string, req: IncomingMessage): boolean {
  if (origins.has(origin)) return true;
  try {
    // The app's own origin: the page was served by this very host.
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** CORS for REST and matchmaking alike (a plain Node handler: it runs before Express and Colyseus). */
export function corsHandler(config: Config) {
  const origins = allowedOrigins(config);
  return corsMiddleware<IncomingMessage>((req, callback) => {
    const origin = req.headers.origin;
    callback(null, {
      origin: typeof origin === "string" && isAllowedOrigin(origins, origin, req),
      credentials: false,
      methods: ["GET", "HEAD", "POST", "PATCH"],
      allowedHeaders: ["Authorization", "Content-Type", "Accept"],
      maxAge: 600,
    });
  });
}
