import { randomUUID } from "node:crypto";
import type { Room } from "@colyseus/sdk";
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

  /** The first message (past or future) matching, within a few seconds. */
  wait(match: (m: { type: string; body: any }) => boolean, timeoutMs = 10_000): Promise<{ type: string; body: any }> {
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
}

export const newRequestId = () => `req-${randomUUID()}`;

/** Sends a request and waits for its answer. */
export async function ask(room: Room, inbox: Inbox, type: string, body: Record<string, unknown>) {
  const requestId = (body.requestId as string | undefined) ?? newRequestId();
  room.send(type, { ...body, requestId });
  return inbox.answer(requestId);
}

/** Polls until `condition` holds; for state the SDK fills in asynchronously. */
export async function waitFor(condition: () => unknown, timeoutMs = 5_000) {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Joins a casino room as the token's player and waits for its first state. */
export async function joinCasino(t: TestApp, token: string) {
  const room = await t.sdk(token).create("casino");
  const inbox = new Inbox(room);
  await waitFor(() => (room.state as { serverSeedHash?: string })?.serverSeedHash);
  return { room, inbox };
}
