import { basename } from "node:path";
import type { ServerResponse } from "node:http";
import express, { type Router } from "express";
import expressStaticGzip from "express-static-gzip";
import { DISCORD_CDN_PREFIX } from "@casino/common";

/** Vite names every file under assets/ by a hash of its content: a new build gives new names. */
export const IMMUTABLE = "public, max-age=31536000, immutable";
/** index.html names the current build's assets, so a browser asks again each time (304 when unchanged). */
export const REVALIDATE = "no-cache";
/** Files of public/ (sounds) keep their names across builds. */
export const SHORT = "public, max-age=3600";

/** The file a response is for, without the `.br`/`.gz` of a precompressed twin. */
const served = (path: string) => path.replace(/\.(br|gz)$/, "");

function cacheControl(res: ServerResponse, path: string): void {
  const file = served(path).split("\\").join("/");
  if (/\/assets\/[^/]+$/.test(file)) res.setHeader("Cache-Control", IMMUTABLE);
  else if (basename(file) === "index.html") res.setHeader("Cache-Control", REVALIDATE);
  else res.setHeader("Cache-Control", SHORT);
}

/**
 * The built client: each file as its Brotli or gzip twin when the browser accepts one (the build writes
 * them, see client/vite.config.ts), with `Vary: Accept-Encoding`; hashed assets cached for a year,
 * index.html revalidated. Any other path outside /api and /matchmake is the single-page app's
 * index.html; a missing asset, or an avatar under the Discord CDN mapping, is a 404, never the page in its place.
 */
export function clientFiles(dist: string): Router {
  const files = expressStaticGzip(dist, {
    enableBrotli: true,
    orderPreference: ["br", "gzip"],
    index: false,
    serveStatic: { index: false, cacheControl: false, setHeaders: cacheControl },
  });
  const router = express.Router();
  router.use(files);
  router.use("/assets", (_req, res) => void res.status(404).type("text/plain").send("Not found"));
  // Discord's proxy answers this prefix (the URL mapping to its CDN) before it reaches us; a request that
  // does reach us (the mapping missing) is a 404, so the avatar falls back to its generated face.
  router.use(DISCORD_CDN_PREFIX, (_req, res) => void res.status(404).type("text/plain").send("Not found"));
  router.get(/^\/(?!api\/|matchmake\/).*/, (req, res, next) => {
    req.url = "/index.html";
    files(req, res, next);
  });
  return router;
}
