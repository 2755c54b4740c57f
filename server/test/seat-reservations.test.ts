import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { ROOMS, TABLE_MESSAGES, TABLE_SEATS_COUNT } from "@casino/common";
import { HOLDEM_MESSAGES, HOLDEM_TABLE_SEATS } from "@casino/common/holdem-table";
import { TABLE_SEAT_RESERVATION_MS } from "@casino/common/table-join";
import { ManualClock } from "../src/platform/clock";
import type { TableMetadata } from "../src/table/table-state";
import { startTestApp, type TestApp } from "./harness";
import type { AtTable } from "./holdem-helpers";
import { Inbox, ask, waitFor } from "./room-helpers";

/**
 * The public tables' seat reservations (server/src/table/seat-reservations.ts), for the Hold'em table and
 * the blackjack table alike, on a ManualClock (a reservation runs out when the test advances the clock):
 * joiners asking for a free seat at the same moment fill one table to its seats and the next one gets a
 * new table; a reservation ends when its joiner sits down, leaves the room, or its time passes; and a
 * reservation never stops anyone from taking a free seat first.
 */
const clock = new ManualClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TABLE_LEASE_MS: "60000", BET_RATE_PER_SECOND: "1000" }, { clock });
});
afterAll(async () => t?.close());

interface Kind {
  room: string;
  seats: number;
  sit(j: AtTable, seat: number): Promise<{ type: string; body: any }>;
  stand(j: AtTable): Promise<{ type: string; body: any }>;
}

const KINDS: Kind[] = [
  {
    room: ROOMS.holdem,
    seats: HOLDEM_TABLE_SEATS,
    sit: (j, seat) => ask(j.room, j.inbox, HOLDEM_MESSAGES.sit, { seat, buyIn: 100 }),
    stand: (j) => ask(j.room, j.inbox, HOLDEM_MESSAGES.leave, {}),
  },
  {
    room: ROOMS.table,
    seats: TABLE_SEATS_COUNT,
    sit: (j, seat) => ask(j.room, j.inbox, TABLE_MESSAGES.sit, { seat }),
    stand: (j) => ask(j.room, j.inbox, TABLE_MESSAGES.leave, {}),
  },
];

/** Polls until the check holds (the room's listing and the matchmaker's answer move asynchronously). */
async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What the table publishes for the matchmaker: `freeSeat` counts the seats taken and the seats held. */
const freeSeat = (roomId: string): boolean | undefined =>
  (matchMaker.getLocalRoomById(roomId)?.metadata as TableMetadata | undefined)?.freeSeat;

const guests = (n: number) => Promise.all(Array.from({ length: n }, () => t.guest()));

describe.each(KINDS)("the public $room tables", (kind) => {
  const open: AtTable[] = [];

  async function connect(join: Promise<AtTable["room"]>): Promise<AtTable> {
    const room = await join;
    const at = { room, inbox: new Inbox(room) };
    open.push(at);
    await waitFor(() => (room.state as { snapshot?: string })?.snapshot);
    return at;
  }
  const joinFree = (token: string) => connect(t.sdk(token).joinOrCreate(kind.room, { instanceId: null, freeSeat: true }));
  const joinById = (token: string, roomId: string) => connect(t.sdk(token).joinById(roomId, { instanceId: null }));
  /** Leaves the room (the connection is not left again at the test's end). */
  const leave = (j: AtTable) => {
    open.splice(open.indexOf(j), 1);
    return j.room.leave();
  };

  /** The tables of this kind, once every connection of the test has left them: each closes, so the next test starts with none. */
  afterEach(async () => {
    await Promise.all(open.splice(0).map((j) => j.room.leave().catch(() => undefined)));
    await eventually(async () => (await matchMaker.query({ name: kind.room })).length === 0);
    await t.expectLedgerInvariant();
  });

  /** As many joiners as the table has seats, asking for a free seat at the same moment: all at one new table. */
  async function fillOneTable(): Promise<{ roomId: string; joined: AtTable[] }> {
    const joined = await Promise.all((await guests(kind.seats)).map((g) => joinFree(g.token)));
    const roomId = joined[0]!.room.roomId;
    expect(new Set(joined.map((j) => j.room.roomId))).toEqual(new Set([roomId]));
    return { roomId, joined };
  }

  it("joiners asking for a free seat at once fill one table to its seats, and the next one gets a new table", async () => {
    const all = await Promise.all((await guests(kind.seats + 1)).map((g) => joinFree(g.token)));
    const byRoom = new Map<string, number>();
    for (const j of all) byRoom.set(j.room.roomId, (byRoom.get(j.room.roomId) ?? 0) + 1);
    expect([...byRoom.values()].sort((a, b) => a - b)).toEqual([1, kind.seats]);
    const [full, second] = [...byRoom.entries()].sort((a, b) => b[1] - a[1]).map(([roomId]) => roomId);
    // Nobody has sat down yet: the first table is full of reservations, the second has seats left.
    expect(freeSeat(full!)).toBe(false);
    expect(freeSeat(second!)).toBe(true);
    expect(matchMaker.getLocalRoomById(full!)?.metadata).toMatchObject({ seated: 0, watchers: kind.seats });

    // Reservations only steer the matchmaker: a player who joined the full table by its id takes a seat first.
    const [late, next] = await guests(2);
    const byId = await joinById(late!.token, full!);
    expect((await kind.sit(byId, 1)).body).toMatchObject({ seat: 1 });
    // The next joiner asking for a free seat is matched to the second table.
    expect((await joinFree(next!.token)).room.roomId).toBe(second);
  });

  it("a reservation runs out on the table's clock: a joiner who only watches stops holding a seat", async () => {
    const { roomId } = await fillOneTable();
    expect(freeSeat(roomId)).toBe(false);
    await clock.advance(TABLE_SEAT_RESERVATION_MS - 1);
    expect(freeSeat(roomId)).toBe(false);
    await clock.advance(1);
    expect(freeSeat(roomId)).toBe(true);
    // The watchers are still there, and the next joiner asking for a free seat is matched to their table.
    const [next] = await guests(1);
    expect((await joinFree(next!.token)).room.roomId).toBe(roomId);
    expect(freeSeat(roomId)).toBe(true);
  });

  it("sitting down turns the reservation into the seat, and leaving the room gives it up", async () => {
    const { roomId, joined } = await fillOneTable();
    // Seated: the seat is counted instead of the reservation, and the table stays full.
    expect((await kind.sit(joined[0]!, 1)).body).toMatchObject({ seat: 1 });
    expect(freeSeat(roomId)).toBe(false);
    // Standing up frees the seat: the reservation ended at the sit, so a seat is free now.
    expect((await kind.stand(joined[0]!)).type).toBe("result");
    await eventually(() => freeSeat(roomId) === true);
    // The next joiner asking for a free seat is matched here and holds the last seat.
    const [next] = await guests(1);
    expect((await joinFree(next!.token)).room.roomId).toBe(roomId);
    expect(freeSeat(roomId)).toBe(false);
    // A joiner leaving the room gives its reservation up.
    await leave(joined[1]!);
    await eventually(() => freeSeat(roomId) === true);
  });
});
