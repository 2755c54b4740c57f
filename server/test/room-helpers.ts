import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Room } from "@colyseus/sdk";
import { CASINO_PUSH, seedCommitment, type FairnessInput, type OpenRoundMessage, type OpenRoundView } from "@casino/common";
import { sqlRows } from "../src/platform/db/sql";
import type { TestApp } from "./harness";

/** Collects every message a room receives, so a test can await the one answering its request. */
export class Inbox {
  readonly messages: { type: string; body: any }[] = [];
  private waiters: { match: (m: { type: string; body: any }) => boolean; resolve: (m: any) => void }[] = [];

  constructor(room: Room) {
    room.onMessage("*", (type, body) => {
      const message = { type: String(type), body };
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  /** The first message (past or future) matching; a bound for a failing test, far above what a loaded machine takes. */
  wait(match: (m: { type: string; body: any }) => boolean, timeoutMs = 30_000): Promise<{ type: string; body: any }> {
    const found = this.messages.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no matching room message arrived")), timeoutMs);
      this.waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }

  /** The answer (result, spin or error) to a request. */
  answer(requestId: string) {
    return this.wait((m) => m.body?.requestId === requestId && ["result", "spin", "error"].includes(m.type));
  }

  /** The open round the casino room told of last (`CASINO_PUSH.openRound`); undefined before its first word. */
  openRound(): OpenRoundView | null | undefined {
    const told = this.messages.filter((m) => m.type === CASINO_PUSH.openRound);
    return told.length === 0 ? undefined : (told[told.length - 1]!.body as OpenRoundMessage).round;
  }
}

export const newRequestId = () => `req-${randomUUID()}`;

/** Sends a request and waits for its answer. */
export async function ask(room: Room, inbox: Inbox, type: string, body: Record<string, unknown>) {
  const requestId = (body.requestId as string | undefined) ?? newRequestId();
  room.send(type, { ...body, requestId });
  return inbox.answer(requestId);
}

/** Polls until `condition` holds; for state the SDK fills in asynchronously. */
export async function waitFor(condition: () => unknown, timeoutMs = 15_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Every balance a room's state has shown since now (consecutive repeats once), starting with the
 * current one: the balance reaches a player's connections in the state, not as a message.
 */
export function balancesOf(room: Room): number[] {
  const seen = [(room.state as { balance: number }).balance];
  room.onStateChange((state: { balance: number }) => {
    if (state.balance !== seen[seen.length - 1]) seen.push(state.balance);
  });
  return seen;
}

/** Joins a casino room as the token's player and waits for its first state and its word on the open round. */
export async function joinCasino(t: TestApp, token: string) {
  const room = await t.sdk(token).create("casino");
  const inbox = new Inbox(room);
  await waitFor(() => (room.state as { serverSeedHash?: string })?.serverSeedHash);
  await inbox.wait((m) => m.type === CASINO_PUSH.openRound);
  return { room, inbox };
}

/** Places each bet in turn on a joined casino room, each answered with its result, then leaves the room. */
export async function betAndLeave(
  casino: { room: Room; inbox: Inbox },
  bets: readonly { game: string; amount: number; params: unknown }[],
): Promise<void> {
  for (const bet of bets) expect((await ask(casino.room, casino.inbox, "bet", bet)).type).toBe("result");
  await casino.room.leave(true);
}

/**
 * Gives a player who has not bet yet a chosen active seed pair, so the test, not a crypto-random seed,
 * decides which code path the player's first round takes. The first of `<label>-0`, `<label>-1`, ...
 * (as server seed, with client seed `<label>`) for which `wanted` holds at nonce 0 is written straight
 * into this test file's own database: the protocol never lets a player pick the server seed, which is
 * committed before the client seed. Call it before joining a room, so the room shows the seed's hash.
 */
export async function chooseSeed(
  t: TestApp,
  playerId: string,
  label: string,
  wanted: (input: FairnessInput) => boolean,
): Promise<FairnessInput> {
  for (let i = 0; i < 1000; i++) {
    const input = { serverSeed: `${label}-${i}`, clientSeed: label, nonce: 0 };
    if (!wanted(input)) continue;
    const updated = await t.app.services.db.run((em) =>
      sqlRows(
        em,
        `UPDATE fairness_seeds SET server_seed = $2, server_seed_hash = $3, client_seed = $4 WHERE player_id = $1 AND active AND nonce = 0 RETURNING id`,
        [playerId, input.serverSeed, seedCommitment(input.serverSeed), input.clientSeed],
      ),
    );
    if (updated.length !== 1) throw new Error("the player has no unused active seed");
    return input;
  }
  throw new Error(`no seed among ${label}-0 to ${label}-999 gives the wanted round`);
}
