import { Client } from "@colyseus/sdk";
import { openDatabase, type Database } from "../src/platform/db/database";
import { auditLedger } from "../src/ops/audit-ledger";
import { expectBalancedEconomy } from "./ledger-audit";
import { Inbox, waitFor } from "./room-helpers";
import type { ServerProcess } from "./server-process";
import { requestAt, type ApiAnswer, type RequestOptions } from "./http-request";

/** REST and room calls against a server running in another process (see server-process.ts). */

export const api = (server: ServerProcess, method: string, path: string, options?: RequestOptions): Promise<ApiAnswer> =>
  requestAt(server.baseUrl, method, path, options);

export async function guestOn(server: ServerProcess): Promise<{ token: string; player: any }> {
  const res = await api(server, "POST", "/api/guest", { body: {} });
  if (res.status !== 201) throw new Error(`guest refused: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.session_token, player: res.body.player };
}

/** Joins a casino room through `server` and waits for its first state. */
export async function joinOn(server: ServerProcess, token: string) {
  const client = new Client(server.wsUrl);
  client.auth.token = token;
  const room = await client.create("casino");
  const inbox = new Inbox(room);
  await waitFor(() => (room.state as { serverSeedHash?: string })?.serverSeedHash);
  return { client, room, inbox };
}

/**
 * The ledger audit on a database the test reaches directly, after a fault test (a process killed, an
 * outage, a restart): it fails the test at once unless the whole economy sums to zero and every holding
 * holds its open stakes; the caller checks the players' balances and references.
 */
export async function auditDatabase(databaseUrl: string) {
  const db: Database = await openDatabase(databaseUrl, "memory://");
  try {
    const audit = await auditLedger(db);
    expectBalancedEconomy(audit);
    return audit;
  } finally {
    await db.close();
  }
}
