import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEADERBOARD_ROOM } from "@casino/common";
import type { AdminContext } from "../src/admin/context";
import { setAccountStatus } from "../src/admin/accounts";
import { erasePlayer } from "../src/admin/privacy";
import { Adjustments } from "../src/admin/adjustments";
import { startTestApp, type TestApp } from "./harness";
import { diceBet, discordPlayer, restBoard } from "./leaderboard-helpers";
import { joinCasino, newRequestId, waitFor } from "./room-helpers";

/**
 * Suspension and erasure inside one server, on both databases: the operator's functions run with the
 * app's own database and presence (on PostgreSQL the CLI itself is tested in admin-cli.test.ts, and
 * against separate server processes in account-suspension.test.ts). What is checked here is where the
 * server decides: the ledger under the player's row lock (whatever any copy in memory says), the
 * session check of REST and room joins, open connections, and the boards.
 */
let t: TestApp;
let ctx: AdminContext;
beforeAll(async () => {
  t = await startTestApp();
  const s = t.app.services;
  ctx = {
    db: s.db,
    operator: "test-operator",
    log: s.log,
    live: { presence: s.presence, leaderboards: s.leaderboards },
    announcements: s.announcements,
  };
});
afterAll(async () => t?.close());

describe("a suspended account", () => {
  it("is refused by the ledger itself, whatever a session check would have said, but an operator can still adjust it", async () => {
    const p = await discordPlayer(t, "LedgerRefusal");
    const suspended = await setAccountStatus(ctx, p.player.id, "suspended", "test: ledger refusal");
    expect(suspended).toMatchObject({ from: "active", to: "suspended", changed: true });

    // Straight to the ledger, with no session in between: the row lock's read refuses it.
    await expect(diceBet(t, p.player.id)).rejects.toMatchObject({ code: "account_suspended" });
    await expect(t.app.services.ledger.dailySpin(p.player.id, "spin-suspended-1")).rejects.toMatchObject({ code: "account_suspended" });

    const adjustments = new Adjustments(t.app.services.db, t.app.services.announcements);
    const clawBack = await adjustments.adjust({
      playerId: p.player.id,
      requestId: "claw-suspended-1",
      kind: "claw_back",
      amount: 300,
      reason: "test: coins won by a bot",
      operator: "test-operator",
    });
    expect(clawBack).toMatchObject({ delta: -300, balance: 700 });
    await t.expectLedgerInvariant();

    await setAccountStatus(ctx, p.player.id, "active", "test: restored");
    const bet = await diceBet(t, p.player.id);
    expect(bet.balance).toBe(700 - bet.stake + bet.payout);
  });

  it("is refused on REST and room joins with the reason, its open connection is closed, and it leaves the boards until restored", async () => {
    const p = await discordPlayer(t, "Suspendee");
    const viewer = await discordPlayer(t, "Viewer");
    const { room, inbox } = await joinCasino(t, p.token);
    let closedWith: { code: number; reason?: string } | undefined;
    room.onLeave((code, reason) => (closedWith = { code, reason }));
    expect((await restBoard(t, viewer.token)).entries.map((e) => e.playerId)).toContain(p.player.id);

    await setAccountStatus(ctx, p.player.id, "suspended", "test: abuse");

    await waitFor(() => closedWith, 10_000);
    expect(closedWith).toEqual({ code: 4403, reason: "This account is suspended and cannot play until an operator restores it" });
    expect(inbox.messages).toContainEqual({
      type: "error",
      body: { code: "account_suspended", message: "This account is suspended and cannot play until an operator restores it" },
    });
    const rest = await t.request("GET", `/api/player/${p.player.id}`, { token: p.token });
    expect(rest).toEqual({
      status: 403,
      body: { code: "account_suspended", error: "This account is suspended and cannot play until an operator restores it" },
    });
    await expect(t.sdk(p.token).create("casino")).rejects.toThrow(/suspended/);
    await expect(t.sdk(p.token).joinOrCreate("crash", { instanceId: null })).rejects.toThrow(/suspended/);
    await expect(t.sdk(p.token).joinOrCreate(LEADERBOARD_ROOM, {})).rejects.toThrow(/suspended/);
    // Signing in again through Discord is refused too, before any new token is made.
    const signIn = await t.request("POST", "/api/token", { body: { code: `ok:${p.discordId}:Suspendee` } });
    expect(signIn.status).toBe(403);
    expect(signIn.body.code).toBe("account_suspended");
    const board = await restBoard(t, viewer.token);
    expect(board.entries.map((e) => e.playerId)).not.toContain(p.player.id);

    await setAccountStatus(ctx, p.player.id, "active", "test: appeal accepted");
    expect((await t.request("GET", `/api/player/${p.player.id}`, { token: p.token })).status).toBe(200);
    const back = await joinCasino(t, p.token);
    expect(back.room.state.balance).toBe(1000);
    await back.room.leave();
    const after = await restBoard(t, viewer.token);
    expect(after.entries.find((e) => e.playerId === p.player.id)).toMatchObject({ balance: 1000 });
    expect(after.total).toBe(board.total + 1);
  });

  it("keeps a crash bet's automatic cash-out, set while active, though the player's own cash-out is refused", async () => {
    const p = await discordPlayer(t, "AutoCashOut");
    const { crash: store, ledger } = t.app.services;
    const opened = await store.openRound(`suspended-auto-${Date.now()}`);
    if (!("opened" in opened)) throw new Error("no round");
    const round = opened.opened;
    await ledger.placeCrashBet(p.player.id, newRequestId(), { roundId: round.roundId, amount: 100, autoCashOut: round.crashPoint });
    await setAccountStatus(ctx, p.player.id, "suspended", "test: suspended mid-round");
    expect(await store.startRunning(round.roundId)).toBe(true);

    const at = { roundId: round.roundId, cashedOutAt: round.crashPoint };
    await expect(ledger.cashOutCrashBet(p.player.id, newRequestId(), { ...at, by: "player" })).rejects.toMatchObject({
      code: "account_suspended",
    });
    // The room's tick reaching the target sends this one (crash-room.ts): the player asked for it with the bet.
    const paid = await ledger.cashOutCrashBet(p.player.id, `server#crash-auto:${round.roundId}:${p.player.id}`, { ...at, by: "auto" });
    expect(paid.payout).toBeGreaterThanOrEqual(Math.floor((100 * round.crashPoint) / 100));
    expect(await store.bust(round.roundId)).toBe(true);
    expect((await t.request("GET", `/api/player/${p.player.id}`, { token: p.token })).status).toBe(403);
    await t.expectLedgerInvariant();
    await setAccountStatus(ctx, p.player.id, "active", "test: restored");
    const after = await t.request("GET", `/api/player/${p.player.id}`, { token: p.token });
    expect(after.body.balance).toBe(1000 - 100 + paid.payout);
  });
});

describe("an erased account", () => {
  it("refuses its session and every money request except settlements; operators cannot adjust it", async () => {
    const p = await discordPlayer(t, "Erasee");
    const erasure = await erasePlayer(ctx, p.player.id, "test: owner's request", false);
    expect(erasure.erased).toBe(true);
    const rest = await t.request("GET", `/api/player/${p.player.id}/tags`, { token: p.token });
    expect(rest).toEqual({ status: 401, body: { code: "account_erased", error: "This account was deleted; its data has been erased" } });
    await expect(diceBet(t, p.player.id)).rejects.toMatchObject({ code: "account_erased" });
    await expect(
      new Adjustments(t.app.services.db, t.app.services.announcements).adjust({
        playerId: p.player.id,
        requestId: "grant-erased-1",
        kind: "grant",
        amount: 5,
        reason: "test",
        operator: "test-operator",
      }),
    ).rejects.toMatchObject({ code: "account_erased" });
    await expect(setAccountStatus(ctx, p.player.id, "suspended", "test")).rejects.toMatchObject({ code: "account_erased" });
    await t.expectLedgerInvariant();
  });
});
