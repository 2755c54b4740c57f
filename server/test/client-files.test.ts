import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "./harness";

/**
 * The built client as the server sends it: precompressed twins chosen by Accept-Encoding, with Vary,
 * hashed assets immutable for a year, index.html revalidated, and API answers compressed on the fly.
 * fetch() would decompress silently, so the raw bytes are read with node:http.
 */
let t: TestApp;
let dist: string;
const SCRIPT = `export const lobby = ${JSON.stringify("x".repeat(50) + "0123456789".repeat(300))};\n`;
const PAGE = `<!doctype html><html><head><title>Casino</title></head><body>${"<p>casino</p>".repeat(200)}<script type="module" src="/assets/index-AbC123.js"></script></body></html>`;

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(path: string, acceptEncoding?: string): Promise<Raw> {
  const url = new URL(path, t.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "client-dist-"));
  mkdirSync(join(dist, "assets"));
  mkdirSync(join(dist, "sounds"));
  for (const [file, text] of [
    ["index.html", PAGE],
    ["assets/index-AbC123.js", SCRIPT],
  ] as const) {
    writeFileSync(join(dist, file), text);
    writeFileSync(join(dist, `${file}.br`), brotliCompressSync(text));
    writeFileSync(join(dist, `${file}.gz`), gzipSync(text));
  }
  writeFileSync(join(dist, "sounds/click.mp3"), Buffer.alloc(2048, 7));
  t = await startTestApp({ CLIENT_DIST: dist }, { redis: false });
}, 60_000);

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("the client's files", () => {
  it("sends a hashed asset as its Brotli twin to a browser that accepts br, cached for a year", async () => {
    const res = await get("/assets/index-AbC123.js", "gzip, deflate, br");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers["content-type"]).toMatch(/javascript/);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.body.length).toBeLessThan(SCRIPT.length / 5);
    expect(brotliDecompressSync(res.body).toString()).toBe(SCRIPT);
  });

  it("sends the gzip twin when only gzip is accepted, and the file itself when nothing is", async () => {
    const gz = await get("/assets/index-AbC123.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(SCRIPT);
    expect(gz.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    const plain = await get("/assets/index-AbC123.js");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it("makes the browser revalidate index.html, at / and at any page of the app, compressed", async () => {
    // the lobby's tabs, a game's address, Discord's /.proxy form of one, and an address the app shows its lobby at
    const pages = ["/leaderboard", "/daily-spin", "/games/mines", "/.proxy/games/mines", "/no/such/page"];
    for (const path of ["/", "/index.html", "/fairness", "/settings", ...pages]) {
      const res = await get(path, "br");
      expect(res.status, path).toBe(200);
      expect(res.headers["cache-control"], path).toBe("no-cache");
      expect(res.headers["content-encoding"], path).toBe("br");
      expect(brotliDecompressSync(res.body).toString(), path).toBe(PAGE);
    }
  });

  it("answers a missing asset with 404, not with the page", async () => {
    const res = await get("/assets/index-Gone99.js", "br");
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain("<html");
  });

  it("caches files of fixed names (sounds) for an hour only", async () => {
    const res = await get("/sounds/click.mp3", "br");
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("compresses API answers on the fly (the tag list is several kB)", async () => {
    const { token, player } = await t.guest();
    const url = new URL(`/api/player/${player.id}/tags`, t.baseUrl);
    const res = await new Promise<Raw>((resolve, reject) => {
      const req = httpRequest(url, { headers: { "accept-encoding": "br", authorization: `Bearer ${token}` } }, (r) => {
        const parts: Buffer[] = [];
        r.on("data", (c: Buffer) => parts.push(c));
        r.on("end", () => resolve({ status: r.statusCode!, headers: r.headers, body: Buffer.concat(parts) }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(res.body).toString())).toBeTruthy();
  });
});
