import type { Room } from "@colyseus/sdk";
import { ROOMS, TABLE_MESSAGES, TABLE_SEATS_COUNT, tableSnapshotOf, type TableRoomState, type TableSnapshot } from "@casino/common";
import { defineScenario } from "../scenario";
import type { VirtualPlayer } from "../player";

/** A bot's table: its room, its seat, and the phase changes it saw (for the round timings). */
interface AtTable {
  room: Room;
  seat: number;
  phase: string | null;
  bettingOpenedAt: number | null;
  dealtAt: number | null;
}

const tables = new WeakMap<VirtualPlayer, AtTable>();

/** How long a bot thinks before its bet and before each action: a person's pace at a blackjack table. */
const THINK_MS = { min: 1000, max: 3000 };
const snapshot = (room: Room): TableSnapshot | null => tableSnapshotOf(room.state as Partial<TableRoomState> | undefined);

/** Resolves once `test` holds for the table's snapshot (checked at every change), or false after `ms` / at the end of the run. */
function until(p: VirtualPlayer, room: Room, test: (s: TableSnapshot) => boolean, ms: number): Promise<boolean> {
  const holds = () => {
    const s = snapshot(room);
    return s !== null && test(s);
  };
  if (holds()) return Promise.resolve(true);
  return new Promise((resolve) => {
    let settled = false;
    const listener = () => {
      if (holds()) done(true);
    };
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      room.onStateChange.remove(listener);
      resolve(ok);
    };
    room.onStateChange(listener);
    void p.ctx.pause(ms).then(() => done(holds()));
  });
}

/** Joins a public table with a free seat and sits at one; a seat taken meanwhile is tried again, then a new table. */
async function seat(p: VirtualPlayer): Promise<AtTable | null> {
  for (let attempt = 0; attempt < 5 && !p.stopping; attempt++) {
    const room = await p.joinRoom(
      ROOMS.table,
      { instanceId: null, freeSeat: true },
      (s) => typeof s?.snapshot === "string" && s.snapshot !== "",
    );
    if (!room) return null;
    for (let tries = 0; tries < TABLE_SEATS_COUNT; tries++) {
      const s = snapshot(room);
      const taken = new Set(s?.players.map((pl) => pl.seat) ?? []);
      const free = Array.from({ length: TABLE_SEATS_COUNT }, (_, i) => i + 1).filter((n) => !taken.has(n));
      if (free.length === 0) break;
      const chosen = free[Math.floor(Math.random() * free.length)]!;
      const sat = await p.requestIn(room, TABLE_MESSAGES.sit, { seat: chosen }, { label: "table:sit", tolerate: ["seat_taken"] });
      if (sat.ok) return { room, seat: chosen, phase: null, bettingOpenedAt: null, dealtAt: null };
    }
    await room.leave(true).catch(() => undefined);
  }
  return null;
}

/** Stand on 17 or more, hit below; insurance declined. */
function decide(s: TableSnapshot, mySeat: number): Record<string, unknown> | null {
  const view = s.view;
  if (!view || s.toAct !== mySeat) return null;
  if (view.phase === "insurance") return { type: "insurance", take: false };
  const me = view.seats.find((seat) => seat.seat === mySeat);
  const hand = me?.hands[me.active];
  if (!hand) return null;
  return { type: hand.total >= 17 || !view.actions.includes("hit") ? "stand" : "hit" };
}

/**
 * The shared blackjack table (public tables, as guests play them): bots fill tables seven at a time
 * (`freeSeat` matching), and every round each bets 10 coins, presses Ready, and plays its turn when
 * its seat is to act (stand on 17 or more, hit otherwise, no insurance), thinking 1 to 3 s before its
 * bet and before each action, as a person would. Besides each message's
 * latency (`table:bet`, `table:ready`, `table:act`), each bot records the round's timings it saw:
 * `table:round deal-to-settle` (the deal to the settled phase) and `table:round cycle` (one betting
 * window's opening to the next), once per seated bot. Short rounds need short server timers (`TABLE_BETTING_MS`,
 * `TABLE_SETTLED_MS`); betting closes early once every seat is ready. The action's round trip
 * (`table:act`) is timed from its sending, after the thinking.
 */
export default defineScenario({
  name: "table",
  description: "the shared blackjack table: seven bots a table, a bet and Ready each round, the turn played",
  async setup(p) {
    const at = await seat(p);
    if (!at) return;
    tables.set(p, at);
    at.room.onStateChange(() => {
      const s = snapshot(at.room);
      if (!s || s.phase === at.phase) return;
      const now = performance.now();
      const stats = p.ctx.stats;
      if (s.phase === "betting") {
        if (at.bettingOpenedAt !== null) stats.record("table:round cycle", now - at.bettingOpenedAt);
        at.bettingOpenedAt = now;
      } else if (at.phase === "betting" && s.phase !== "waiting") {
        at.dealtAt = now;
      }
      if (s.phase === "settled" && at.dealtAt !== null) {
        stats.record("table:round deal-to-settle", now - at.dealtAt);
        at.dealtAt = null;
      }
      at.phase = s.phase;
    });
  },
  async step(p) {
    const at = tables.get(p);
    if (!at) return p.think(1000, 2000);
    const { room } = at;
    // The next betting window this bot has not bet in yet.
    const mine = (s: TableSnapshot) => s.players.find((pl) => pl.seat === at.seat);
    if (!(await until(p, room, (s) => s.phase === "betting" && mine(s)?.bet === null, 60_000)) || p.stopping) return;
    await p.think(THINK_MS.min, THINK_MS.max);
    if (p.stopping || snapshot(room)?.phase !== "betting") return;
    const bet = await p.requestIn(room, TABLE_MESSAGES.bet, { amount: 10 }, { label: "table:bet", tolerate: ["betting_closed"] });
    if (!bet.ok) return;
    await p.requestIn(room, TABLE_MESSAGES.ready, {}, { label: "table:ready", tolerate: ["betting_closed"] });
    // Play the round: act whenever this seat is to act, until the round is settled.
    const acted = new Set<string>();
    while (!p.stopping) {
      const ok = await until(p, room, (s) => s.phase === "settled" || decide(s, at.seat) !== null, 60_000);
      const s = snapshot(room);
      if (!ok || !s || s.phase === "settled") break;
      const action = decide(s, at.seat)!;
      const me = s.view!.seats.find((seat) => seat.seat === at.seat)!;
      const key = `${s.view!.round}:${s.view!.phase}:${me.active}:${me.hands[me.active]?.cards.length ?? 0}`;
      if (acted.has(key)) {
        await p.ctx.pause(20);
        continue;
      }
      acted.add(key);
      await p.think(THINK_MS.min, THINK_MS.max);
      if (p.stopping) break;
      await p.requestIn(room, TABLE_MESSAGES.act, { action }, { label: "table:act", tolerate: ["not_your_turn", "no_turn"] });
    }
  },
});
