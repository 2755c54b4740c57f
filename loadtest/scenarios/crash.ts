import type { Room } from "@colyseus/sdk";
import { CRASH_MESSAGES, ROOMS, type CrashRoomState } from "@casino/common";
import { defineScenario } from "../scenario";
import type { VirtualPlayer } from "../player";

const rooms = new WeakMap<VirtualPlayer, Room>();

/** Resolves true once `test` holds for the room's state (checked at every change); false after `ms` or when the run ends. */
function until(p: VirtualPlayer, room: Room, test: (s: CrashRoomState) => boolean, ms: number): Promise<boolean> {
  const state = () => room.state as CrashRoomState;
  if (test(state())) return Promise.resolve(true);
  return new Promise((resolve) => {
    let settled = false;
    const listener = () => {
      if (test(state())) done(true);
    };
    const done = (ok: boolean) => {
      if (settled) return;
      settled = true;
      room.onStateChange.remove(listener);
      resolve(ok);
    };
    room.onStateChange(listener);
    void p.ctx.pause(ms).then(() => done(test(state())));
  });
}

/**
 * The shared crash room, as guests outside Discord play it: everyone in the public room. Each round a
 * player bets 10 coins in the betting phase; half the players set an automatic cash-out between 1.2×
 * and 3×, the others cash out by hand once the multiplier reaches their target. A hand cash-out that
 * the bust beat is the game, not a failure: counted apart. The room answers it `not_running` ("Too
 * late: the round has busted") when the bust is decided first, and the ledger `cash_out_refused` when
 * the bust settled the bet while the cash-out was on its way to it.
 */
export default defineScenario({
  name: "crash",
  description: "the shared crash room: a bet each round, cashed out automatically or by hand at a target",
  async setup(p) {
    const room = await p.joinRoom(ROOMS.crash, { instanceId: null }, (s) => typeof s?.phase === "string" && s.phase !== "");
    if (room) rooms.set(p, room);
  },
  async step(p) {
    const room = rooms.get(p);
    if (!room) return p.think(1000, 2000);
    // A betting phase of a round the player has no bet in yet (at most a whole round away).
    if (!(await until(p, room, (s) => s.phase === "betting" && !s.bets.has(p.playerId), 60_000)) || p.stopping) return;
    const target = Math.round(120 + Math.random() * 180); // hundredths: 1.20× to 3.00×
    const automatic = p.index % 2 === 0;
    const placed = await p.requestIn(
      room,
      CRASH_MESSAGES.bet,
      { amount: 10, autoCashOut: automatic ? target / 100 : null },
      { label: "crash:bet" },
    );
    if (!placed.ok) return;
    const round = placed.body.roundId as string;
    if (!automatic) {
      await until(
        p,
        room,
        (s) => s.roundId !== round || s.phase === "busted" || (s.phase === "running" && s.multiplier >= target),
        120_000,
      );
      const s = room.state as CrashRoomState;
      if (s.roundId === round && s.phase === "running") {
        await p.requestIn(room, CRASH_MESSAGES.cashOut, {}, { label: "crash:cashout", tolerate: ["not_running", "cash_out_refused"] });
      }
    }
    await until(p, room, (s) => s.roundId !== round || s.phase === "busted", 120_000);
  },
});
