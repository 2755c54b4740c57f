import type { IncomingMessage, Server, ServerResponse } from "node:http";
import getRawBody from "raw-body";
import type { Config } from "../../platform/config";
import type { Lifecycle } from "../../platform/lifecycle";
import { SHUTTING_DOWN } from "../../platform/failures";
import { corsHandler } from "./cors";

/** Bodies of matchmaking requests: the SDK sends a few hundred bytes of room options. */
export const MATCHMAKE_BODY_LIMIT = "16kb";

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The first thing every HTTP request meets, before Express and before Colyseus's matchmaking router
 * (which reads and parses a body of any size, before any authentication):
 * - while the process drains, new requests are refused with 503 and the connection is closed;
 * - requests are counted as work in flight until their response is done;
 * - CORS is answered here for every path (REST and matchmaking alike), preflights included;
 * - a matchmaking body is read with a 16 kB cap: a declared Content-Length over it is refused with 413
 *   before a byte of it is read, a chunked body as soon as it passes the cap.
 *
 * - an idle connection stays open for `httpKeepAliveMs` (65 s by default, Node's own is 5 s), longer
 *   than clients and proxies keep theirs, so they close it first and never send a request on a
 *   connection the server is closing.
 *
 * Installed after the server listens, around whatever request listeners Colyseus and Express attached.
 */
export function guardHttpServer(server: Server, config: Config, lifecycle: Lifecycle): void {
  server.keepAliveTimeout = config.httpKeepAliveMs;
  // A request's headers may take as long as the connection may idle (Node's advice: a little longer).
  server.headersTimeout = Math.max(server.headersTimeout, config.httpKeepAliveMs + 1_000);
  const downstream = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  const dispatch: Listener = (req, res) => {
    for (const listener of downstream) listener.call(server, req, res);
  };
  const cors = corsHandler(config);

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (!lifecycle.accepting) {
      res.setHeader("connection", "close");
      return sendJson(res, SHUTTING_DOWN.status, { error: SHUTTING_DOWN.message, code: SHUTTING_DOWN.code });
    }
    res.once("close", lifecycle.begin());
    res.setHeader("vary", "Origin");
    cors(req, res, () => {
      // A preflight that reaches here came from an origin we do not serve.
      if (req.method === "OPTIONS" && req.headers.origin && req.headers["access-control-request-method"]) {
        return sendJson(res, 403, { error: "This origin may not call the casino", code: "origin_not_allowed" });
      }
      if (req.method === "POST" && (req.url ?? "").startsWith("/matchmake/")) return readCapped(req, res, dispatch);
      dispatch(req, res);
    });
  });
}

function readCapped(req: IncomingMessage, res: ServerResponse, next: Listener): void {
  getRawBody(req, { limit: MATCHMAKE_BODY_LIMIT, length: req.headers["content-length"], encoding: "utf8" }).then(
    (body) => {
      // Colyseus's router uses a body already read instead of reading the stream again.
      (req as IncomingMessage & { body?: string }).body = body === "" ? "{}" : body;
      next(req, res);
    },
    (error: { type?: string; status?: number }) => {
      res.setHeader("connection", "close");
      if (error.type === "entity.too.large") return sendJson(res, 413, { error: "Request body too large", code: "body_too_large" });
      sendJson(res, error.status && error.status < 500 ? error.status : 400, { error: "Unreadable request body", code: "bad_request" });
    },
  );
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return void res.end();
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json) });
  res.end(json);
}
