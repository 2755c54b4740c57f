import type { Room } from "@colyseus/sdk";
import { ROOMS } from "@casino/common";
import {
  HOLDEM_BUY_IN,
  HOLDEM_MESSAGES,
  HOLDEM_PUSH,
  HOLDEM_TABLE_SEATS,
  holdemSnapshotOf,
  type HoldemPrivateView,
  type HoldemRoomState,
  type HoldemTableSnapshot,
} from "@casino/common/holdem-table";
import { defineScenario } from "../scenario";
import type { VirtualPlayer } from "../player";

type Legal = NonNullable<HoldemPrivateView["legal"]>;

/** A bot's table: its room, its own private view (numbered as they arrive), and the hand it saw dealt. */
interface AtTable {
  room: Room;
  view: HoldemPrivateView | null;
  /** How many private views arrived; the view acted on is `acted`. */
  views: number;
  acted: number;
  /** Wakes the bot's wait at every private view and state change. */
  wake: Set<() => void>;
  dealt: { handNumber: number; at: number } | null;
}

const tables = new WeakMap<VirtualPlayer, AtTable>();

/** What the report counts when a bot found no seat at the table it was matched to, and asked for another. */
const TABLE_FULL = "holdem: no seat at the matched table, asked for another";

/** How long a bot thinks before each action: a person's pace at a poker table. */
const THINK_MS = { min: 1000, max: 3000 };
const snapshot = (room: Room): HoldemTableSnapshot | null => holdemSnapshotOf(room.state as Partial<HoldemRoomState> | undefined);

/** Resolves true once `test` holds (checked at every private view and state change); false after `ms` or at the end of the run. */
function until(p: VirtualPlayer, at: AtTable, test: () => boolean, ms: number): Promise<boolean> {
  if (test()) return Promise.resolve(true);
  return new Promise((resolve) => {
    let settled = false;
    const listener = () => {
      if (test()) done(true);
    };
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      at.wake.delete(listener);
      resolve(ok);
    };
    at.wake.add(listener);
    void p.ctx.pause(ms).then(() => done(test()));
  });
}

/** Joins a public table that has a free seat (`freeSeat` matching), with the listeners that keep the bot's view. */
async function joinTable(p: VirtualPlayer): Promise<AtTable | null> {
  const room = await p.joinRoom(
    ROOMS.holdem,
    { instanceId: null, freeSeat: true },
    (s) => typeof s?.snapshot === "string" && s.snapshot !== "",
  );
  if (!room) return null;
  const at: AtTable = { room, view: null, views: 0, acted: 0, wake: new Set(), dealt: null };
  const wake = () => {
    for (const listener of [...at.wake]) listener();
  };
  room.onMessage(HOLDEM_PUSH.private, (view: HoldemPrivateView) => {
    at.view = view;
    at.views++;
    wake();
  });
  room.onStateChange(() => {
    const s = snapshot(room);
    if (s?.hand && s.hand.seats.some((seat) => seat.seat === at.view?.seat) && at.dealt?.handNumber !== s.hand.handNumber) {
      at.dealt = { handNumber: s.hand.handNumber, at: performance.now() };
    }
    if (s?.phase === "pause" && at.dealt && s.previousHand?.start.handNumber === at.dealt.handNumber) {
      p.ctx.stats.record("holdem:hand deal-to-result", performance.now() - at.dealt.at);
      at.dealt = null;
    }
    wake();
  });
  return at;
}

/**
 * A seat at a public table. The table holds a seat for each player it was matched to for a free seat
 * until they sit (or leave, or the reservation runs out), so bots joining at the same moment are spread
 * over tables; a table may still fill before the bot sits (a player who joined it by its id, or a
 * reservation that ran out, takes the seat first). The bot then leaves it and asks again, as a player
 * would press "Hold'em table" again, which the full table no longer matches; the report counts these
 * (`TABLE_FULL`). Up to five tables; null when none had a seat.
 */
async function takeSeat(p: VirtualPlayer): Promise<AtTable | null> {
  for (let tries = 0; tries < 5 && !p.stopping; tries++) {
    const at = await joinTable(p);
    if (!at) return null;
    tables.set(p, at);
    if (await sitDown(p, at)) return at;
    if (!p.stopping) p.ctx.stats.tolerate(TABLE_FULL);
    await leaveTable(p, at);
    await p.think(100, 500);
  }
  return null;
}

/** Sits at a free seat with a buy-in of 100 coins (a seat taken meanwhile is tried again), and waits until the table shows it. */
async function sitDown(p: VirtualPlayer, at: AtTable): Promise<boolean> {
  const room = at.room;
  const buyIn = Math.min(Math.max(100, HOLDEM_BUY_IN.min), HOLDEM_BUY_IN.max);
  if (p.balance > 0 && p.balance < buyIn) {
    p.ctx.stats.tolerate("holdem:sit: not sent, balance too low");
    return false;
  }
  for (let tries = 0; tries < HOLDEM_TABLE_SEATS && !p.stopping; tries++) {
    const taken = new Set(snapshot(room)?.seats.map((s) => s.seat) ?? []);
    const free = Array.from({ length: HOLDEM_TABLE_SEATS }, (_, i) => i + 1).filter((n) => !taken.has(n));
    if (free.length === 0) return false;
    const seat = free[Math.floor(Math.random() * free.length)]!;
    const sat = await p.requestIn(room, HOLDEM_MESSAGES.sit, { seat, buyIn }, { label: "holdem:sit", tolerate: ["seat_taken"] });
    if (sat.ok) return until(p, at, () => !!snapshot(room)?.seats.some((s) => s.playerId === p.playerId), p.ctx.timeoutMs);
  }
  return false;
}

/** Check when free (now and then a minimum bet), call up to 10 coins (now and then a minimum raise), else fold. */
function decide(legal: Legal): Record<string, unknown> {
  const bold = Math.random() < 0.15;
  if (legal.check) return bold && legal.bet ? { type: "bet", amount: legal.bet.min } : { type: "check" };
  if (bold && legal.raise && legal.raise.min <= 20) return { type: "raise", amount: legal.raise.min };
  if (legal.call !== null && legal.call <= 10) return { type: "call" };
  return { type: "fold" };
}

/** Leaves the seat (the stack back to the balance, at once or after the hand) and the room. */
async function leaveTable(p: VirtualPlayer, at: AtTable): Promise<void> {
  tables.delete(p);
  if (snapshot(at.room)?.seats.some((s) => s.playerId === p.playerId)) {
    await p.requestIn(at.room, HOLDEM_MESSAGES.leave, {}, { label: "holdem:leave", tolerate: ["not_seated", "timeout"] });
  }
  await at.room.leave(true).catch(() => undefined);
}

/**
 * The Hold'em table (public tables, as guests play them): bots fill tables eight at a time (`freeSeat`
 * matching), each buying in with 100 coins, and play their turns as the private view offers them: check
 * when it is free, call up to 10 coins, fold to more, and now and then bet or raise the minimum. Besides
 * `holdem:sit`, it records `holdem:act`, the round trip of an action (sent to answered), and
 * `holdem:hand deal-to-result` (a hand's deal to its result, as each seated bot saw it). A bot thinks 1
 * to 3 s before each action, as a person would. A bot busted or unseated sits down again (at another
 * table when this one filled); at the end of the run each leaves its seat, its stack back to the
 * balance. Hands follow each other as fast as the bots and the table's pause between hands (4 s) allow.
 */
export default defineScenario({
  name: "holdem",
  description: "the Hold'em table: eight bots a table, a 100-coin buy-in, turns played from the private view",
  async setup(p) {
    await takeSeat(p);
  },
  async step(p) {
    const at = tables.get(p);
    if (!at) {
      if (!(await takeSeat(p))) await p.think(1000, 2000);
      return;
    }
    const mine = () => snapshot(at.room)?.seats.find((s) => s.playerId === p.playerId);
    if (!mine() || mine()!.stack === 0) {
      // Busted or unseated: stand up and sit down again, at another table if this one filled meanwhile.
      if (mine()) await p.requestIn(at.room, HOLDEM_MESSAGES.leave, {}, { label: "holdem:leave", tolerate: ["not_seated"] });
      if (!(await sitDown(p, at))) await leaveTable(p, at);
      return;
    }
    // A turn of this bot's it has not acted on yet.
    const turn = () => at.views > at.acted && at.view?.legal != null && !!mine();
    const ok = await until(p, at, turn, 60_000);
    if (p.stopping) return leaveTable(p, at);
    if (!ok) return;
    at.acted = at.views;
    // A person's pace: a moment to decide (the table's decision timer allows 45 s).
    await p.think(THINK_MS.min, THINK_MS.max);
    if (p.stopping) return leaveTable(p, at);
    await p.requestIn(
      at.room,
      HOLDEM_MESSAGES.act,
      { action: decide(at.view!.legal!) },
      { label: "holdem:act", tolerate: ["not_your_turn", "no_hand", "hand_over"] },
    );
  },
});
