import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { matchMaker } from "@colyseus/core";
import { ColyseusTestServer } from "@colyseus/testing";
import { Client as SdkClient } from "@colyseus/sdk";
import { randomUUID } from "node:crypto";
import { replayRound, floatStream, verifyCommitment, WHEEL_PRIZES, pickIndex, MAX_BET, STAKE_RULE_MESSAGE } from "@casino/common";
import { moneyGroupCommit } from "../src/core/ledger/engine/requests";
import { remindersOf } from "../src/casino/reminders";
import { startTestApp, type TestApp } from "./harness";
import { Inbox, ask, joinCasino, newRequestId, waitFor } from "./room-helpers";
import { encodeWire, sendRaw, wireOf, type Wire } from "./msgpack-frames";

let t: TestApp;
let colyseus: ColyseusTestServer;
beforeAll(async () => {
  t = await startTestApp({ BET_RATE_PER_SECOND: "1000" });
  colyseus = new ColyseusTestServer(t.app.server);
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const join = (token: string) => joinCasino(t, token);

describe("joining", () => {
  it("admits a valid session token and mirrors balance and fairness", async () => {
    const { token, player } = await t.guest();
    const { room } = await join(token);
    const state = room.state as any;
    expect(state.balance).toBe(1000);
    expect(state.serverSeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(state.nonce).toBe(0);
    expect(player.balance).toBe(1000);
    await room.leave();
  });

  it("refuses an invalid token", async () => {
    const roomsBefore = (await matchMaker.query({ name: "casino" })).length;
    // The server's own refusal (401 and its reason), not any failure: a server that is down fails too.
    await expect(t.sdk("not-a-token").create("casino")).rejects.toMatchObject({ code: 401, message: "Invalid session token" });
    await expect(new SdkClient(t.wsUrl).create("casino")).rejects.toMatchObject({ code: 401, message: "Authentication required" });
    const joined = (await matchMaker.query({ name: "casino" })).filter((r) => r.clients > 0).length;
    expect(joined).toBeLessThanOrEqual(roomsBefore);
  });

  it("is reachable through @colyseus/testing as well", async () => {
    const { token } = await t.guest();
    colyseus.sdk.auth.token = token;
    const room = await colyseus.sdk.create("casino");
    const serverRoom = colyseus.getRoomById(room.roomId);
    expect(serverRoom.clients.length).toBe(1);
    await room.leave();
  });
});

describe("betting", () => {
  it("plays dice, limbo and coin flip, and moves the balance on every connection of the player", async () => {
    const { token, player } = await t.guest();
    const a = await join(token);
    const b = await join(token);
    let expected = 1000;
    for (const [game, params] of [
      ["dice", { target: 50, direction: "under" }],
      ["limbo", { target: 2 }],
      ["coin-flip", { side: "heads" }],
    ] as const) {
      const { type, body } = await ask(a.room, a.inbox, "bet", { game, amount: 25, params });
      expect(type).toBe("result");
      expect(body).toMatchObject({ game, done: true, stake: 25 });
      expected += body.payout - 25;
      expect(body.balance).toBe(expected);
      await waitFor(() => (b.room.state as any).balance === expected);
    }
    // The balance travels in the state only: no message of its own.
    expect([...a.inbox.messages, ...b.inbox.messages].filter((m) => m.type === "balance")).toEqual([]);
    expect(await t.balanceOf(player.id)).toBe(expected);
    await a.room.leave();
    await b.room.leave();
  });

  it("corrects a balance heard from another connection that is older than its own answer, from the database", async () => {
    // Another process's announcement can arrive after this room's own, later answer (its commit came
    // first, its message last): the room shows it, then reads the balance again.
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    const answer = await ask(room, inbox, "bet", { game: "coin-flip", amount: 10, params: { side: "heads" } });
    expect(answer.type).toBe("result");
    const stale = answer.body.balance + 10;
    const seen: number[] = [];
    room.onStateChange((state: any) => seen.push(state.balance));
    t.app.services.events.publish(player.id, { type: "balance", balance: stale, delta: 10, reason: "bet", from: "another-room" });
    await waitFor(() => seen.includes(stale));
    await waitFor(() => (room.state as any).balance === answer.body.balance);
    expect(await t.balanceOf(player.id)).toBe(answer.body.balance);
    await room.leave();
  });

  it("answers a repeated request id with the first answer and debits once", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    const requestId = newRequestId();
    room.send("bet", { requestId, game: "dice", amount: 100, params: { target: 10, direction: "under" } });
    room.send("bet", { requestId, game: "dice", amount: 100, params: { target: 10, direction: "under" } });
    await waitFor(() => inbox.messages.filter((m) => m.body?.requestId === requestId).length === 2);
    const [first, second] = inbox.messages.filter((m) => m.body?.requestId === requestId);
    expect(first!.body.replayed).toBeUndefined();
    expect(second!.body).toEqual({ ...first!.body, replayed: true });
    const entries = await t.app.services.db.run((em) =>
      em.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE player_id = $1 AND reason = 'bet'`, [player.id]),
    );
    expect(entries[0].n).toBe(1);
    await room.leave();
  });

  it("accepts exactly the affordable bets among 100 concurrent ones, never going negative", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    // Setting a client seed rotates the pair. Then pick, against the new server seed, a client seed under
    // which none of the first 100 rolls wins, so affordability alone decides which bets are accepted.
    const set = await ask(room, inbox, "seed:client", { clientSeed: "placeholder" });
    expect(set.type).toBe("result");
    const [{ server_seed: activeSeed }] = await t.app.services.db.run((em) =>
      em.query(`SELECT server_seed FROM fairness_seeds WHERE player_id = $1 AND active`, [player.id]),
    );
    let chosen = "";
    for (let i = 0; !chosen; i++) {
      const candidate = `losing-${i}`;
      const wins = Array.from(
        { length: 100 },
        (_, nonce) => pickIndex(floatStream({ serverSeed: activeSeed, clientSeed: candidate, nonce }), 10_000) < 1,
      );
      if (!wins.some(Boolean)) chosen = candidate;
    }
    await t.app.services.db.run((em) =>
      em.query(`UPDATE fairness_seeds SET client_seed = $2 WHERE player_id = $1 AND active`, [player.id, chosen]),
    );
    const ids = Array.from({ length: 100 }, () => newRequestId());
    for (const requestId of ids) room.send("bet", { requestId, game: "dice", amount: 30, params: { target: 0.01, direction: "under" } });
    const answers = await Promise.all(ids.map((id) => inbox.answer(id)));
    const accepted = answers.filter((a) => a.type === "result");
    const refused = answers.filter((a) => a.type === "error");
    expect(accepted.length).toBe(Math.floor(1000 / 30));
    expect(new Set(refused.map((r) => r.body.code))).toEqual(new Set(["insufficient_funds"]));
    expect(await t.balanceOf(player.id)).toBe(1000 - 30 * accepted.length);
    await room.leave();
  });

  it("answers bad messages of every kind with an error, stays connected, and changes nothing", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    const bad: [Record<string, unknown>, string][] = [
      [{ game: "dice", amount: 0.5, params: { target: 50, direction: "under" } }, "invalid_message"],
      [{ game: "dice", amount: -5, params: { target: 50, direction: "under" } }, "invalid_message"],
      [{ game: "dice", amount: 5000, params: { target: 50, direction: "under" } }, "insufficient_funds"],
      [{ game: "roulette-royale", amount: 5, params: {} }, "invalid_message"],
      [{ game: "dots", amount: 5, params: {} }, "unknown_game"],
      [{ game: "dice", amount: 5, params: { target: 99.5, direction: "under" } }, "invalid_params"],
      [{ game: "dice", amount: 5, params: { target: 50.001, direction: "under" } }, "invalid_params"],
      [{ game: "limbo", amount: 5, params: { target: 1 } }, "invalid_params"],
      [{ game: "coin-flip", amount: 5, params: { side: "edge" } }, "invalid_params"],
      [{ game: "dice", amount: 5, params: { target: 50, direction: "under" }, extra: true }, "invalid_message"],
      [{ game: "dice", amount: 5_000_000, params: { target: 50, direction: "under" } }, "invalid_amount"],
    ];
    for (const [body, code] of bad) {
      const answer = await ask(room, inbox, "bet", body);
      expect(answer.type, JSON.stringify(body)).toBe("error");
      expect(answer.body.code, JSON.stringify(body)).toBe(code);
      expect(answer.body.message.length).toBeGreaterThan(3);
    }
    room.send("bet", "garbage");
    room.send("bet", { requestId: "short", game: "dice" });
    await inbox.wait((m) => m.type === "error" && m.body.requestId === "short");
    const act = await ask(room, inbox, "act", { action: { type: "hit" } });
    expect(act.body.code).toBe("no_open_round");
    expect(await t.balanceOf(player.id)).toBe(1000);
    expect((room.state as any).nonce).toBe(0);
    await room.leave();
  });

  it("refuses a bet its own contents rule out (params, stake limits) before it reaches the ledger's batches", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    const stats = moneyGroupCommit(t.app.services.db).stats;
    const before = stats.members;
    for (const [body, code] of [
      [{ game: "dice", amount: 5, params: { target: 99.5, direction: "under" } }, "invalid_params"],
      [{ game: "coin-flip", amount: 5, params: { side: "edge" } }, "invalid_params"],
      [{ game: "dice", amount: 5_000_000, params: { target: 50, direction: "under" } }, "invalid_amount"],
    ] as const) {
      const answer = await ask(room, inbox, "bet", body);
      expect(answer.body.code, JSON.stringify(body)).toBe(code);
    }
    expect(stats.members).toBe(before);
    // A bet that passes those checks does go to the ledger (so the count above is the one that moves).
    const ok = await ask(room, inbox, "bet", { game: "dice", amount: 5, params: { target: 50, direction: "under" } });
    expect(ok.type).toBe("result");
    expect(stats.members).toBe(before + 1);
    expect(await t.balanceOf(player.id)).toBe(ok.body.balance);
    await room.leave();
  });

  it("answers values msgpack carries and JSON does not with a precise error, in any field, never a failure", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 40; i++) cursor = (cursor.x = {}) as Record<string, unknown>;
    const bin = { t: "bin", v: new Uint8Array([1, 2, 3]) } as const;
    // [message type, the message with one value in place of a field, the code, where the message points]
    const cases: [string, Wire, string, RegExp][] = [
      [
        "bet",
        wireOf({ game: "dice", amount: 25, params: { target: Number.NaN, direction: "under" } }),
        "invalid_message",
        /params\.target/,
      ],
      ["bet", wireOf({ game: "limbo", amount: 25, params: { target: Infinity } }), "invalid_message", /params\.target/],
      ["bet", wireOf({ game: "crash", amount: 25, params: { cashOutAt: Number.NaN } }), "invalid_message", /params\.cashOutAt/],
      ["bet", wireOf({ game: "dice", amount: 25, params: { target: -0, direction: "under" } }), "invalid_message", /negative zero/],
      [
        "bet",
        wireOf({ game: "dice", amount: 25, params: { target: 50, direction: "under", n: 2n ** 63n } }),
        "invalid_message",
        /params\.n/,
      ],
      ["bet", wireOf({ game: "dice", amount: 2n ** 62n, params: { target: 50, direction: "under" } }), "invalid_message", /amount/],
      ["bet", wireOf({ game: "dice", amount: -0, params: { target: 50, direction: "under" } }), "invalid_message", /amount/],
      ["bet", wireOf({ game: "dice", amount: Number.NaN, params: { target: 50, direction: "under" } }), "invalid_message", /amount/],
      ["bet", wireOf({ game: "dice", amount: 25, params: deep }), "invalid_message", /levels deep/],
      [
        "bet",
        { t: "map", v: [...(wireOf({ game: "dice", amount: 25 }) as { v: [Wire, Wire][] }).v, [{ t: "str", v: "params" }, bin]] },
        "invalid_message",
        /binary/,
      ],
      [
        "bet",
        {
          t: "map",
          v: [
            ...(wireOf({ game: "dice", amount: 25 }) as { v: [Wire, Wire][] }).v,
            [
              { t: "str", v: "params" },
              { t: "timestamp", v: 1 },
            ],
          ],
        },
        "invalid_message",
        /params/,
      ],
      ["bet", bin, "invalid_message", /must be an object/],
      ["act", wireOf({ action: { type: "reveal", tile: Number.NaN } }), "invalid_message", /action\.tile/],
      ["act", wireOf({ action: { type: "reveal", tile: [[[[[[[[[1]]]]]]]]] } }), "invalid_message", /levels deep/],
      ["seed:client", wireOf({ clientSeed: Number.NaN }), "invalid_message", /clientSeed/],
      ["daily-spin", wireOf({ requestId: Infinity }), "invalid_message", /requestId/],
    ];
    for (const [type, message, code, where] of cases) {
      const requestId = newRequestId();
      const withId =
        message.t === "map" && !message.v.some(([k]) => k.t === "str" && k.v === "requestId")
          ? ({
              t: "map",
              v: [
                [
                  { t: "str", v: "requestId" },
                  { t: "str", v: requestId },
                ],
                ...message.v,
              ],
            } as Wire)
          : message;
      const before = inbox.messages.length;
      sendRaw(room, type, encodeWire(withId));
      const answer = await inbox.wait((m) => m.type === "error" && inbox.messages.indexOf(m) >= before);
      if (withId !== message) expect(answer.body.requestId).toBe(requestId);
      expect(answer.type, `${type} ${code}`).toBe("error");
      expect(answer.body.code, `${type}: ${answer.body.message}`).toBe(code);
      expect(answer.body.message, type).toMatch(where);
    }
    // A mines round open, then the same action values against it.
    const opened = await ask(room, inbox, "bet", { game: "mines", amount: 100, params: { mines: 3 } });
    expect(opened.type, JSON.stringify(opened.body)).toBe("result");
    const requestId = newRequestId();
    sendRaw(room, "act", encodeWire(wireOf({ requestId, action: { type: "reveal", tile: Number.NaN } })));
    expect((await inbox.answer(requestId)).body).toMatchObject({ code: "invalid_message", message: expect.stringMatching(/action\.tile/) });
    expect((await ask(room, inbox, "act", { action: { type: "reveal", tile: 1.5 } })).body.code).toBe("invalid_action");
    expect(await t.balanceOf(player.id)).toBe(1000 - 100);
    expect(room.connection.isOpen).toBe(true);
    await room.leave();
  });

  it("delivers a bet sent during a reconnect, exactly once", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    room.reconnection.minUptime = 0;
    room.reconnection.delay = 50;
    room.reconnection.minDelay = 50;
    const dropped = new Promise<void>((resolve) => room.onDrop.once(() => resolve()));
    const reconnected = new Promise<void>((resolve) => room.onReconnect.once(() => resolve()));
    const serverRoom = matchMaker.getLocalRoomById(room.roomId)!;
    (serverRoom.clients[0] as any).ref.terminate();
    await dropped;
    const requestId = newRequestId();
    room.send("bet", { requestId, game: "coin-flip", amount: 25, params: { side: "tails" } });
    await reconnected;
    const answer = await inbox.answer(requestId);
    expect(answer.type).toBe("result");
    expect(await t.balanceOf(player.id)).toBe(1000 - 25 + answer.body.payout);
    await room.leave();
  });
});

describe("seed changes", () => {
  it("reach the player's other connection from the ledger's announcement of the commit", async () => {
    const { token } = await t.guest();
    const a = await join(token);
    const b = await join(token);
    await waitFor(() => b.room.state.serverSeedHash !== "" && a.room.state.serverSeedHash === b.room.state.serverSeedHash);
    const { type, body } = await ask(a.room, a.inbox, "seed:client", { clientSeed: "another-seed" });
    expect(type).toBe("result");
    expect(body.active.clientSeed).toBe("another-seed");
    await waitFor(() => b.room.state.clientSeed === "another-seed" && b.room.state.serverSeedHash === body.active.serverSeedHash);
    expect(b.room.state.nextServerSeedHash).toBe(body.active.nextServerSeedHash);
    expect(a.room.state.serverSeedHash).toBe(body.active.serverSeedHash);
    await a.room.leave();
    await b.room.leave();
  });
});

describe("the stake rule", () => {
  it("is checked inside the ledger's transaction too, for every kind of bet, with its one message", async () => {
    const { player } = await t.guest();
    const ledger = t.app.services.ledger;
    for (const amount of [0, 1.5, MAX_BET + 1]) {
      const refused = { code: "invalid_amount", message: STAKE_RULE_MESSAGE };
      await expect(ledger.placeBet(player.id, newRequestId(), "dice", amount, { target: 50, direction: "over" })).rejects.toMatchObject(
        refused,
      );
      await expect(
        ledger.placeCrashBet(player.id, newRequestId(), { roundId: randomUUID(), amount, autoCashOut: null }),
      ).rejects.toMatchObject(refused);
      await expect(ledger.placeTableBet(player.id, newRequestId(), { roundId: randomUUID(), seat: 0, amount })).rejects.toMatchObject(
        refused,
      );
    }
    expect(await t.balanceOf(player.id)).toBe(1000);
  });
});

describe("history", () => {
  it("pages back with before: every bet exactly once, newest first", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    const placed: string[] = [];
    for (let i = 0; i < 12; i++) {
      const requestId = newRequestId();
      const res = await ask(room, inbox, "bet", { requestId, game: "coin-flip", amount: 25, params: { side: "heads" } });
      expect(res, JSON.stringify(res.body)).toMatchObject({ type: "result" });
      placed.push(requestId);
    }
    const seen: string[] = [];
    const pages: number[] = [];
    let before: string | null = null;
    do {
      const query: string = `limit=5${before ? `&before=${encodeURIComponent(before)}` : ""}`;
      const page = await t.request("GET", `/api/player/${player.id}/history?${query}`, { token });
      expect(page.status).toBe(200);
      pages.push(page.body.items.length);
      seen.push(...page.body.items.map((item: { requestId: string }) => item.requestId));
      before = page.body.nextBefore;
    } while (before !== null && pages.length < 10);
    expect(pages).toEqual([5, 5, 2]);
    expect(seen).toEqual([...placed].reverse());
    await room.leave();
  });
});

describe("provable fairness", () => {
  it("re-derives every bet from the revealed seed", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    for (let i = 0; i < 6; i++) {
      await ask(room, inbox, "bet", {
        game: (["dice", "limbo", "coin-flip"] as const)[i % 3],
        amount: 50,
        params: [{ target: 33.33, direction: "over" }, { target: 1.5 }, { side: "tails" }][i % 3],
      });
    }
    const hashBefore = (room.state as any).serverSeedHash;
    const rotated = await ask(room, inbox, "seed:rotate", {});
    expect(rotated.type).toBe("result");
    expect(rotated.body.revealed.serverSeedHash).toBe(hashBefore);
    expect(verifyCommitment(rotated.body.revealed.serverSeed, hashBefore)).toBe(true);
    await waitFor(() => (room.state as any).serverSeedHash !== hashBefore);
    const history = await t.request("GET", `/api/player/${player.id}/history?limit=50`, { token });
    expect(history.body.items).toHaveLength(6);
    for (const item of history.body.items) {
      expect(item.fairness.serverSeed).toBe(rotated.body.revealed.serverSeed);
      const replay = replayRound(
        { serverSeed: item.fairness.serverSeed, clientSeed: item.fairness.clientSeed, nonce: item.fairness.nonce },
        { game: item.gameType, amount: item.betAmount, params: item.params, actions: item.actions, rounding: item.rounding },
      );
      expect(replay.totalPayout).toBe(item.payout);
      expect(replay.view).toEqual(item.outcome);
    }
    const seeds = await t.request("GET", `/api/player/${player.id}/seeds`, { token });
    expect(seeds.body.active.serverSeed).toBeUndefined();
    expect(seeds.body.revealed[0].serverSeed).toBe(rotated.body.revealed.serverSeed);
    await room.leave();
  });
});

describe("daily spin", () => {
  it("spun over REST reaches the player's open room connections: the ledger announces the commit, the route tells nobody", async () => {
    const { token, player } = await t.guest();
    const a = await join(token);
    const b = await join(token);
    await waitFor(() => a.room.state.balance === 1000 && b.room.state.balance === 1000);
    const spin = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id } });
    expect(spin.status).toBe(200);
    expect(spin.body.prize).toBeGreaterThan(0);
    await waitFor(() => a.room.state.balance === 1000 + spin.body.prize && b.room.state.balance === 1000 + spin.body.prize);
    // The same request again is a replay: it moves nothing and announces nothing.
    const again = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id, requestId: spin.body.requestId } });
    expect(again.body).toMatchObject({ replayed: true, balance: 1000 + spin.body.prize });
    await a.room.leave();
    await b.room.leave();
  });

  it("pays exactly once among 20 concurrent spins, from REST and the room alike", async () => {
    const { token, player } = await t.guest();
    const { room, inbox } = await join(token);
    const rest = Array.from({ length: 10 }, () => t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id } }));
    const ids = Array.from({ length: 10 }, () => newRequestId());
    for (const requestId of ids) room.send("daily-spin", { requestId });
    const restAnswers = await Promise.all(rest);
    const roomAnswers = await Promise.all(ids.map((id) => inbox.answer(id)));
    const wins = [
      ...restAnswers.filter((r) => r.status === 200).map((r) => r.body),
      ...roomAnswers.filter((a) => a.type === "spin").map((a) => a.body),
    ];
    expect(wins).toHaveLength(1);
    expect(WHEEL_PRIZES).toContain(wins[0].prize);
    const refusals = [
      ...restAnswers.filter((r) => r.status !== 200).map((r) => r.body.error),
      ...roomAnswers.filter((a) => a.type === "error").map((a) => a.body.message),
    ];
    expect(new Set(refusals)).toEqual(new Set(["Already spun today"]));
    expect(await t.balanceOf(player.id)).toBe(1000 + wins[0].prize);
    const again = await t.request("POST", "/api/daily-spin", { token, body: { playerId: player.id } });
    expect(again.status).toBe(429);
    expect(again.body.msLeft).toBeGreaterThan(23 * 3600 * 1000);
    await room.leave();
  });

  it("reminds once when the wheel is ready and the reminder is on", async () => {
    const { token, player } = await t.guest();
    await t.request("PATCH", "/api/player/reminder", { token, body: { playerId: player.id, enabled: true } });
    const first = await join(token);
    await first.inbox.wait((m) => m.type === "notice" && m.body.title === "Daily Spin Ready!");
    // A second connection, and the periodic sweep (driven here rather than waited for), must not remind
    // again until the next spin.
    const second = await join(token);
    await ask(second.room, second.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    const sentAt = async () =>
      (await t.app.services.db.run((em) => em.query(`SELECT last_reminder_sent FROM players WHERE id = $1`, [player.id])))[0]
        .last_reminder_sent;
    const claimed = await sentAt();
    expect(claimed).not.toBeNull();
    await remindersOf(t.app.services).sweep();
    expect(await sentAt()).toEqual(claimed); // the sweep claimed nothing
    await ask(second.room, second.inbox, "bet", { game: "coin-flip", amount: 25, params: { side: "heads" } });
    const notices = (inbox: Inbox) => inbox.messages.filter((m) => m.type === "notice" && m.body.title === "Daily Spin Ready!");
    expect(notices(first.inbox)).toHaveLength(1);
    expect(notices(second.inbox)).toHaveLength(0);
    await first.room.leave();
    await second.room.leave();
  });
});
