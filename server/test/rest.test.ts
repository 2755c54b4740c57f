import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SignJWT } from "jose";
import { CASINO_PUSH, STARTING_BALANCE, TERMS_VERSION } from "@casino/common";
import { startTestApp, type TestApp } from "./harness";
import { ask, joinCasino } from "./room-helpers";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SPECIAL_BADGES: JSON.stringify({ "99": "Creator" }) });
});
afterAll(async () => t?.close());
afterEach(async () => t.expectLedgerInvariant());

const ledgerOf = (playerId: string) =>
  t.app.services.db.run((em) =>
    em.query(`SELECT delta, reason, balance_after FROM ledger_entries WHERE player_id = $1 ORDER BY id`, [playerId]),
  );

describe("health and hardening", () => {
  it("reports database and redis health", async () => {
    const res = await t.request("GET", "/api/health");
    expect(res).toEqual({ status: 200, body: { status: "ok", database: "ok", redis: "ok" } });
  });

  it("has no /metrics endpoint without METRICS_TOKEN", async () => {
    const res = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: "Bearer anything-at-all-0123456789" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "Not found", code: "not_found" });
  });

  it("answers an unknown /api route with a JSON 404", async () => {
    const res = await t.request("GET", "/api/nope");
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/No such endpoint/);
  });

  it("refuses malformed JSON with 400", async () => {
    const res = await t.request("POST", "/api/guest", { raw: "{not json" });
    expect(res).toMatchObject({ status: 400, body: { error: "Malformed JSON body" } });
  });

  it("refuses a body over the limit with 413", async () => {
    const res = await t.request("POST", "/api/guest", { raw: JSON.stringify({ username: "x".repeat(20_000) }) });
    expect(res.status).toBe(413);
  });

  it("sends security headers that still allow Discord's frame", async () => {
    const res = await fetch(`${t.baseUrl}/api/health`);
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'self' https://discord.com");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("guests", () => {
  it("creates a guest with the starting grant as its first ledger entry, and reads it back", async () => {
    const { token, player } = await t.guest();
    expect(player.discordId).toMatch(/^guest-[0-9a-f]{24}$/);
    expect(player.username).toMatch(/^Guest \d{1,4}$/);
    expect(Number(player.username.slice(6))).toBeLessThan(10_000);
    expect(player.balance).toBe(STARTING_BALANCE);
    const entries = (await ledgerOf(player.id)).map((e: any) => [Number(e.delta), e.reason, Number(e.balance_after)]);
    expect(entries).toEqual([[STARTING_BALANCE, "grant", STARTING_BALANCE]]);
    const read = await t.request("GET", `/api/player/${player.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: player.id, balance: 1000, isGuest: true, reminderEnabled: false });
  });

  it("answers a kept session's player and open round, as a sign-in does", async () => {
    const { token, player } = await t.guest();
    expect((await t.request("POST", "/api/guest")).body).toMatchObject({ openRound: null });
    expect((await t.request("GET", "/api/session", { token })).body).toEqual({ player, openRound: null });
    expect((await t.request("GET", "/api/session")).status).toBe(401);
    // A mines round left open: the session says so, as the casino room does on a join.
    const { room, inbox } = await joinCasino(t, token);
    const opened = await ask(room, inbox, "bet", { game: "mines", amount: 100, params: { mines: 3 } });
    expect(opened.type, JSON.stringify(opened.body)).toBe("result");
    await room.leave();
    const kept = await t.request("GET", "/api/session", { token });
    expect(kept.status).toBe(200);
    expect(kept.body.player).toMatchObject({ id: player.id, balance: player.balance - 100 });
    expect(kept.body.openRound).toMatchObject({ game: "mines", totalStake: 100, totalPayout: 0 });
    expect(kept.body.openRound.view).toBeTruthy();
    const told = await joinCasino(t, token);
    const pushed = await told.inbox.wait((m) => m.type === CASINO_PUSH.openRound);
    expect(pushed.body.round).toEqual(kept.body.openRound);
    await told.room.leave();
  });

  it("takes a valid name and refuses an invalid one", async () => {
    expect((await t.guest("Lucky Lu")).player.username).toBe("Lucky Lu");
    const bad = await t.request("POST", "/api/guest", { body: { username: "x".repeat(40) } });
    expect(bad).toMatchObject({ status: 400, body: { error: "username: username must be at most 32 characters" } });
  });
});

describe("authorization", () => {
  it("401 without a token, with a forged token, and with an expired token", async () => {
    const { player } = await t.guest();
    expect((await t.request("GET", `/api/player/${player.id}`)).status).toBe(401);
    const forged = await new SignJWT({ did: player.discordId })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(player.id)
      .sign(new TextEncoder().encode("not-the-secret-not-the-secret-not-the-secret"));
    expect((await t.request("GET", `/api/player/${player.id}`, { token: forged })).status).toBe(401);
    const expired = await t.app.services.tokens.issue({ playerId: player.id, discordId: player.discordId, guest: true }, -10);
    const res = await t.request("GET", `/api/player/${player.id}`, { token: expired });
    expect(res).toMatchObject({ status: 401, body: { error: "Session expired" } });
  });

  it("403 when a body names someone else, and others see only public fields", async () => {
    const me = await t.guest();
    const other = await t.guest();
    const res = await t.request("PATCH", "/api/player/anonymous", { token: me.token, body: { playerId: other.player.id, enabled: true } });
    expect(res.status).toBe(403);
    const publicView = await t.request("GET", `/api/player/${other.player.id}`, { token: me.token });
    expect(Object.keys(publicView.body).sort()).toEqual([
      "activeTagId",
      "anonymousMode",
      "avatarUrl",
      "badge",
      "balance",
      "id",
      "username",
    ]);
  });
});

describe("the refused mints", () => {
  it("PATCH /api/player/balance and POST /api/game-session change nothing", async () => {
    const { token, player } = await t.guest();
    const before = await ledgerOf(player.id);
    const a = await t.request("PATCH", "/api/player/balance", { token, body: { playerId: player.id, balance: 1_000_000 } });
    const b = await t.request("POST", "/api/game-session", {
      token,
      body: { playerId: player.id, gameType: "dice", betAmount: 1, result: "win", payout: 999_999 },
    });
    expect(a).toMatchObject({ status: 403, body: { error: "Balances and game results are kept by the server" } });
    expect(b.status).toBe(403);
    expect((await t.request("GET", `/api/player/${player.id}`, { token })).body.balance).toBe(1000);
    expect(await ledgerOf(player.id)).toEqual(before);
  });
});

describe("player settings", () => {
  it("accepts only the current terms version", async () => {
    const { token, player } = await t.guest();
    const old = await t.request("PATCH", "/api/player/accept-tos", { token, body: { playerId: player.id, version: "2024-01-01" } });
    expect(old.status).toBe(400);
    expect(old.body.error).toContain(TERMS_VERSION);
    const ok = await t.request("PATCH", "/api/player/accept-tos", { token, body: { playerId: player.discordId, version: TERMS_VERSION } });
    expect(ok).toMatchObject({ status: 200, body: { tosAcceptedVersion: TERMS_VERSION } });
  });

  it("toggles anonymous mode and the reminder", async () => {
    const { token, player } = await t.guest();
    expect(
      (await t.request("PATCH", "/api/player/anonymous", { token, body: { playerId: player.id, enabled: true } })).body.anonymousMode,
    ).toBe(true);
    const r = await t.request("PATCH", "/api/player/reminder", { token, body: { playerId: player.id, enabled: true } });
    expect(r.body).toMatchObject({ dailySpinReminder: true, reminderEnabled: true });
    const bad = await t.request("PATCH", "/api/player/reminder", { token, body: { playerId: player.id, enabled: "yes" } });
    expect(bad.status).toBe(400);
  });

  it("refuses theme changes from guests and validates the colour for Discord players", async () => {
    const guest = await t.guest();
    expect(
      (
        await t.request("PATCH", "/api/player/theme", {
          token: guest.token,
          body: { playerId: guest.player.id, mode: "light", color: "120 50% 50%" },
        })
      ).status,
    ).toBe(403);
    const discord = await t.request("POST", "/api/token", { body: { code: "ok:4242:Theme" } });
    const { session_token: token, player } = discord.body;
    const bad = await t.request("PATCH", "/api/player/theme", {
      token,
      body: { playerId: player.id, mode: "light", color: "400 50% 50%" },
    });
    expect(bad.status).toBe(400);
    // a colour alone: the mode is not chosen yet, and the device's preference goes on deciding it
    expect(player).toMatchObject({ themeMode: "dark", themeModeChosen: false });
    const colour = await t.request("PATCH", "/api/player/theme", { token, body: { playerId: player.id, color: "40 60% 55%" } });
    expect(colour.body).toMatchObject({ themeMode: "dark", themeModeChosen: false, themeColor: "40 60% 55%" });
    const ok = await t.request("PATCH", "/api/player/theme", { token, body: { playerId: player.id, mode: "light", color: "120 52% 41%" } });
    expect(ok.body).toMatchObject({ themeMode: "light", themeModeChosen: true, themeColor: "120 52% 41%" });
  });

  it("lists tags with progress and lets a player wear only an unlocked one", async () => {
    const { token, player } = await t.guest();
    const tags = await t.request("GET", `/api/player/${player.id}/tags`, { token });
    expect(tags.status).toBe(200);
    const types = new Set(tags.body.map((x: any) => x.tag.objectiveType));
    expect([...types].sort()).toEqual(["balance", "card_games", "dice_games", "first_game", "race_win", "total_games", "win_streak"]);
    const locked = tags.body.find((x: any) => !x.unlocked);
    const refused = await t.request("PATCH", "/api/player/active-tag", { token, body: { playerId: player.id, tagId: locked.tagId } });
    expect(refused.status).toBe(403);
    const none = await t.request("PATCH", "/api/player/active-tag", { token, body: { playerId: player.id, tagId: null } });
    expect(none.body.activeTagId).toBeNull();
  });
});

describe("suggestions", () => {
  it("refuses guests, trims, and limits the length", async () => {
    const guest = await t.guest();
    expect(
      (await t.request("POST", "/api/suggestions", { token: guest.token, body: { playerId: guest.player.id, suggestion: "hi" } })).status,
    ).toBe(403);
    const { session_token: token, player } = (await t.request("POST", "/api/token", { body: { code: "ok:5151:Idea" } })).body;
    const empty = await t.request("POST", "/api/suggestions", { token, body: { playerId: player.id, suggestion: "   " } });
    expect(empty).toMatchObject({ status: 400, body: { error: "suggestion: Please enter a suggestion" } });
    const long = await t.request("POST", "/api/suggestions", { token, body: { playerId: player.id, suggestion: "x".repeat(2001) } });
    expect(long.status).toBe(400);
    const ok = await t.request("POST", "/api/suggestions", { token, body: { playerId: player.id, suggestion: "  More games please  " } });
    expect(ok.status).toBe(201);
    const [row] = await t.app.services.db.run((em) => em.query(`SELECT text FROM suggestions WHERE player_id = $1`, [player.id]));
    expect(row.text).toBe("More games please");
  });
});

describe("suggestion rate limit", () => {
  it("accepts five in ten minutes, refuses the sixth, and does not count refused requests", async () => {
    const { session_token: token, player } = (await t.request("POST", "/api/token", { body: { code: "ok:6161:Chatty" } })).body;
    for (let i = 0; i < 3; i++) {
      expect((await t.request("POST", "/api/suggestions", { token, body: { playerId: player.id, suggestion: "" } })).status).toBe(400);
    }
    for (let i = 0; i < 5; i++) {
      expect((await t.request("POST", "/api/suggestions", { token, body: { playerId: player.id, suggestion: `idea ${i}` } })).status).toBe(
        201,
      );
    }
    const sixth = await t.request("POST", "/api/suggestions", { token, body: { playerId: player.id, suggestion: "one more" } });
    expect(sixth).toMatchObject({ status: 429, body: { error: "Too many suggestions; please wait a few minutes", code: "rate_limited" } });
    const [row] = await t.app.services.db.run((em) =>
      em.query(`SELECT count(*)::int AS n FROM suggestions WHERE player_id = $1`, [player.id]),
    );
    expect(row.n).toBe(5);
  });
});

describe("Discord sign-in against a fake Discord", () => {
  it("exchanges the code, reads the user and upserts the player", async () => {
    const res = await t.request("POST", "/api/token", { body: { code: "ok:1234567890:Alice", redirect_uri: "https://example.test" } });
    expect(res.status).toBe(200);
    expect(res.body.access_token).toBe("at-1234567890-Alice");
    expect(res.body.player).toMatchObject({ discordId: "1234567890", username: "Alice", balance: 1000, isGuest: false });
    expect(res.body.player.avatarUrl).toBe("https://cdn.discordapp.com/avatars/1234567890/abc123.png");
    const form = new URLSearchParams(t.discord.requests.find((r) => r.path === "/oauth2/token")!.body);
    expect(form.get("grant_type")).toBe("authorization_code");
    const again = await t.request("POST", "/api/token", { body: { code: "ok:1234567890:Alicia" } });
    expect(again.body.player).toMatchObject({ id: res.body.player.id, username: "Alicia", balance: 1000 });
  });

  it("answers the spec's texts when the exchange fails", async () => {
    expect((await t.request("POST", "/api/token", { body: { code: "rejected" } })).body.error).toBe("Token exchange failed: Bad Request");
    expect((await t.request("POST", "/api/token", { body: { code: "no-token" } })).body.error).toBe("No access token received");
    expect((await t.request("POST", "/api/token", { body: {} })).status).toBe(400);
  });

  it("honours Retry-After on 429 and gives up when Discord keeps refusing", async () => {
    const slowed = await t.request("POST", "/api/token", { body: { code: "slow-down:777:Bob" } });
    expect(slowed.status).toBe(200);
    expect(t.discord.requests.filter((r) => r.body.includes("slow-down%3A777")).length).toBe(2);
    const limited = await t.request("POST", "/api/token", { body: { code: "limited" } });
    expect(limited.body.error).toBe("Token exchange failed: Too Many Requests");
  });

  it("gives special badges to configured Discord ids", async () => {
    const res = await t.request("POST", "/api/token", { body: { code: "ok:99:Maker" } });
    expect(res.body.player.badge).toBe("Creator");
    const plain = await t.request("POST", "/api/token", { body: { code: "ok:98:Other" } });
    expect(plain.body.player.badge).toBeNull();
  });
});
