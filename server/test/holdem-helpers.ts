import type { Room } from "@colyseus/sdk";
import type { HoldemAction } from "@casino/common/games/holdem/index";
import { HOLDEM_MESSAGES, type HoldemTableSnapshot } from "@casino/common/holdem-table";
import { holdemTableAccount } from "../src/holdem/holdem-money";
import type { TestApp } from "./harness";
import { Inbox, ask, waitFor } from "./room-helpers";

/**
 * The Hold'em table's server tests' common steps. That each table's holding account holds the stacks of
 * its seats is not checked here: the ledger audit every test runs afterwards (`expectLedgerInvariant`,
 * `auditDatabase`) checks it for every table, with the other holdings.
 */

/** A query on the test's database (`TestApp.sql`, or a client of its own), answering the rows. */
export type Query = (text: string, params?: unknown[]) => Promise<any[]>;

/** A connection to a table room. */
export interface AtTable {
  room: Room;
  inbox: Inbox;
}

/**
 * Joins the public table room `roomId`, or creates one, and waits for its first snapshot; `listen` adds
 * the caller's listeners before that, so they miss nothing the room sends.
 */
export async function joinTable(t: TestApp, token: string, roomId?: string, listen?: (room: Room) => void): Promise<AtTable> {
  const sdk = t.sdk(token);
  const room = roomId ? await sdk.joinById(roomId, { instanceId: null }) : await sdk.create("holdem-table", { instanceId: null });
  const inbox = new Inbox(room);
  listen?.(room);
  await waitFor(() => (room.state as { snapshot?: string })?.snapshot);
  return { room, inbox };
}

/** The table as this connection last saw it. */
export const snap = (j: { room: Room }): HoldemTableSnapshot => JSON.parse((j.room.state as { snapshot: string }).snapshot);

export const act = (j: AtTable, action: HoldemAction) => ask(j.room, j.inbox, HOLDEM_MESSAGES.act, { action });

/** Waits until the table (as `j` sees it) plays hand `n` with `seat` to act. */
export const toAct = (j: AtTable, n: number, seat: number) =>
  waitFor(() => snap(j).hand?.handNumber === n && snap(j).hand?.toAct === seat, 10_000);

/** Waits until the table (as `j` sees it) shows hand `n`'s result in the pause after it. */
export const handOver = (j: AtTable, n: number) =>
  waitFor(() => snap(j).previousHand?.start.handNumber === n && snap(j).phase === "pause", 10_000);

/** The player's balance as the database holds it. */
export const balanceOf = async (sql: Query, playerId: string) =>
  Number((await sql(`SELECT balance FROM players WHERE id = $1`, [playerId]))[0].balance);

/** What the table's holding account holds, summed from the ledger's entries. */
export const tableHolding = async (sql: Query, tableId: string) =>
  Number((await sql(`SELECT coalesce(sum(-delta), 0) AS b FROM ledger_entries WHERE account = $1`, [holdemTableAccount(tableId)]))[0].b);
