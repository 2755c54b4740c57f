import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Room } from "@colyseus/sdk";
import { TABLE_MESSAGES, TABLE_SEATS_COUNT, type TableSnapshot } from "@casino/common";
import { startTestApp, type TestApp } from "./harness";
import { Inbox, ask, waitFor } from "./room-helpers";

/**
 * A full table's state (7 seats dealt, their names, the shoe's seeds) is several kilobytes of JSON,
 * more than the 2 KB encoder buffers every room gets (casino-state.ts). The table room starts with
 * buffers sized for it, so Colyseus never has to grow one and print its buffer-overflow warning.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TABLE_BETTING_MS: "30000", TABLE_TURN_MS: "30000", BET_RATE_PER_SECOND: "1000" });
});
afterAll(async () => t?.close());

describe("a full table's state", () => {
  it("is encoded for joins and patches without the encoder's buffer-overflow warning", async () => {
    const warnings: string[] = [];
    const spy = vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(" ")));
    try {
      const seated: { room: Room; inbox: Inbox }[] = [];
      for (let seat = 1; seat <= TABLE_SEATS_COUNT; seat++) {
        const guest = await t.request("POST", "/api/guest", { body: {} });
        const sdk = t.sdk(guest.body.session_token);
        const room = seated.length
          ? await sdk.joinById(seated[0]!.room.roomId, { instanceId: null })
          : await sdk.joinOrCreate("blackjack-table", { instanceId: null, freeSeat: true });
        const inbox = new Inbox(room);
        await waitFor(() => (room.state as { snapshot?: string })?.snapshot);
        expect((await ask(room, inbox, TABLE_MESSAGES.sit, { seat })).type).toBe("result");
        seated.push({ room, inbox });
      }
      const snap = (): TableSnapshot => JSON.parse((seated[0]!.room.state as { snapshot: string }).snapshot);
      await waitFor(() => snap().phase === "betting" && snap().players.length === TABLE_SEATS_COUNT, 10_000);
      for (const p of seated) expect((await ask(p.room, p.inbox, TABLE_MESSAGES.bet, { amount: 25 })).type).toBe("result");
      for (const p of seated) expect((await ask(p.room, p.inbox, TABLE_MESSAGES.ready, {})).type).toBe("result");
      await waitFor(() => snap().view !== null, 10_000);
      // A watcher joining now gets the whole dealt table in one full-state frame.
      const watcher = await t.request("POST", "/api/guest", { body: {} });
      const watching = await t.sdk(watcher.body.session_token).joinById(seated[0]!.room.roomId, { instanceId: null });
      await waitFor(() => (watching.state as { snapshot?: string })?.snapshot?.includes('"view":{'));
      const size = Buffer.byteLength((watching.state as { snapshot: string }).snapshot);
      console.log(`a dealt table of ${TABLE_SEATS_COUNT}: ${size} bytes of state`);
      expect(size).toBeGreaterThan(2 * 1024);
      expect(warnings.filter((w) => /buffer overflow|BUFFER_SIZE/.test(w))).toEqual([]);
      for (const p of [...seated.map((s) => s.room), watching]) await p.leave();
    } finally {
      spy.mockRestore();
    }
  });
});
