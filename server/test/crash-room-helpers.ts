import { matchMaker } from "@colyseus/core";
import type { Room } from "@colyseus/sdk";
import { crashReachedAtMs } from "@casino/common";
import type { ManualClock } from "../src/platform/clock";
import type { TestApp } from "./harness";
import { Inbox, waitFor } from "./room-helpers";

/** How long a wait for the room's state may take before the test fails: a guard for a loaded machine, not a timing. */
const GUARD_MS = 30_000;

/**
 * The shared crash room's server tests run the app on a ManualClock: a phase lasts until the test
 * advances the clock past it, and the test then waits for the room's state (the store's and the
 * ledger's work is real and takes the time it takes), never for a length of time.
 */

/** The crash room tests' configuration: a short betting phase and a steep curve (2× after 116 ms). */
export const CRASH_ENV = {
  CRASH_BETTING_MS: "250",
  CRASH_BUSTED_MS: "100",
  CRASH_TICK_MS: "20",
  CRASH_CURVE_RATE: "0.006",
  CRASH_CHAIN_LENGTH: "500",
  BET_RATE_PER_SECOND: "1000",
};

export interface CrashStateView {
  phase: string;
  roundId: string;
  gameNumber: number;
  runStartedAt: number;
  multiplier: number;
  crashPoint: number;
  gameHash: string;
  terminatingHash: string;
  bets: Map<string, { status: string }> & { get(id: string): unknown; size: number };
  history: { gameNumber: number; gameHash: string; crashPoint: number }[];
}

export const stateOf = (room: Room) => room.state as unknown as CrashStateView;

/** Joins the crash room of `instanceId` (null: the public room) and waits for its chain's commitment. */
export async function joinCrash(t: TestApp, token: string, instanceId: string | null): Promise<{ room: Room; inbox: Inbox }> {
  const room = await t.sdk(token).joinOrCreate("crash", { instanceId });
  const inbox = new Inbox(room);
  await waitFor(() => stateOf(room)?.terminatingHash, GUARD_MS);
  return { room, inbox };
}

/** Waits for the betting phase of a round other than `after`. */
export async function bettingRound(room: Room, after = ""): Promise<string> {
  await waitFor(() => stateOf(room).phase === "betting" && stateOf(room).roundId !== after, GUARD_MS);
  return stateOf(room).roundId;
}

/** Closes betting (the clock passes its end) and waits for the run to start (or for a 1.00× bust). */
export async function startRun(t: TestApp, clock: ManualClock, room: Room): Promise<void> {
  const roundId = stateOf(room).roundId;
  await clock.advance(t.app.services.config.crash.bettingMs);
  await waitFor(() => stateOf(room).roundId === roundId && ["running", "busted"].includes(stateOf(room).phase), GUARD_MS);
}

/** When the running round of `room` busts: its crash point is read in the database (the test's secret, not the players'). */
export async function bustOf(t: TestApp, room: Room): Promise<{ roundId: string; crashPoint: number; bustAt: number }> {
  const { roundId, runStartedAt } = stateOf(room);
  const [round] = await t.sql(`SELECT crash_point FROM crash_rounds WHERE id = $1`, [roundId]);
  const crashPoint = Number(round.crash_point);
  return { roundId, crashPoint, bustAt: runStartedAt + crashReachedAtMs(crashPoint, t.app.services.config.crash.curveRate) };
}

/** The clock to the round's bust, then its state. */
export async function runToBust(t: TestApp, clock: ManualClock, room: Room): Promise<number> {
  const { roundId, crashPoint, bustAt } = await bustOf(t, room);
  await clock.advance(Math.max(0, bustAt - clock.now()));
  await waitFor(() => stateOf(room).roundId === roundId && stateOf(room).phase === "busted", GUARD_MS);
  return crashPoint;
}

const openRounds = async (t: TestApp, scope: string) =>
  Number((await t.sql(`SELECT count(*)::int AS n FROM crash_rounds WHERE scope = $1 AND phase IN ('betting','running')`, [scope]))[0].n);

/**
 * Leaves, then moves the clock on until the rooms have played their round out and closed (Colyseus
 * disposes an empty room between rounds) and no round of the scope is open, so the next test's join
 * finds a fresh room. Each step waits for the database's answer before the next.
 */
export async function leaveAll(t: TestApp, clock: ManualClock, rooms: Room[], scopes: string[]): Promise<void> {
  const ids = rooms.map((r) => r.roomId);
  await Promise.all(rooms.map((r) => r.leave()));
  const open = async () => (await Promise.all(scopes.map((scope) => openRounds(t, scope)))).some((n) => n > 0);
  const start = Date.now();
  while (ids.some((id) => matchMaker.getLocalRoomById(id)) || (await open())) {
    if (Date.now() - start > GUARD_MS) throw new Error(`the rooms of ${scopes.join(", ")} are still open`);
    await clock.advance(500);
  }
}
