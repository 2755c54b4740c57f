import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Room } from "@colyseus/sdk";
import { TOGETHER_ROOM } from "@casino/common";
import { startTestApp, type TestApp } from "./harness";
import { ask, Inbox, joinCasino, waitFor } from "./room-helpers";

/**
 * Reactions: a member of an activity instance sends one of the fixed emoji on a seat, the crash round,
 * a watched table or a feed row; every member of the instance gets it, nobody elsewhere. The budgets
 * refill so slowly here that a burst's count never depends on the machine's speed.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    REACTIONS_PER_SECOND: "0.001",
    REACTION_BURST: "3",
    INSTANCE_REACTIONS_PER_SECOND: "0.001",
    INSTANCE_REACTION_BURST: "5",
    // the fuzz below waits for each answer, so it may send faster than a person
    ROOM_MAX_MESSAGES_PER_SECOND: "10000",
  });
});
afterAll(async () => t?.close());

async function signIn(id: string, name: string, instanceId: string) {
  const res = await t.request("POST", "/api/token", { body: { code: `ok:${id}:${name}`, instanceId } });
  expect(res.status).toBe(200);
  return { discordId: id, token: res.body.session_token as string, player: res.body.player };
}

async function joinTogether(token: string, instanceId: string | null): Promise<{ room: Room; inbox: Inbox }> {
  const room = await t.sdk(token).joinOrCreate(TOGETHER_ROOM, { instanceId });
  return { room, inbox: new Inbox(room) };
}

const latestMembers = (inbox: Inbox): any[] => {
  const pushes = inbox.messages.filter((m) => m.type === "members");
  return pushes[pushes.length - 1]?.body.members ?? [];
};
const reactions = (inbox: Inbox) => inbox.messages.filter((m) => m.type === "reaction").map((m) => m.body);
const errors = (inbox: Inbox) => inbox.messages.filter((m) => m.type === "error").map((m) => m.body);

/** Sends a reaction and waits for what answers the sender: its own reaction back, or an error. */
async function react(member: { room: Room; inbox: Inbox }, body: unknown) {
  const [seen, refused] = [reactions(member.inbox).length, errors(member.inbox).length];
  member.room.send("react", body);
  await waitFor(() => reactions(member.inbox).length > seen || errors(member.inbox).length > refused, 10_000);
  return errors(member.inbox).length > refused ? { error: errors(member.inbox).at(-1) } : { reaction: reactions(member.inbox).at(-1) };
}

describe("reactions", () => {
  it("reach every member of the instance, the sender's included, and no other instance", async () => {
    const alice = await signIn("8300001", "Alice", "inst-react-a");
    const bob = await signIn("8300002", "Bob", "inst-react-a");
    const dave = await signIn("8300004", "Dave", "inst-react-b");
    const a = await joinTogether(alice.token, "inst-react-a");
    const b = await joinTogether(bob.token, "inst-react-a");
    const d = await joinTogether(dave.token, "inst-react-b");
    const g = await joinTogether((await t.guest()).token, null);
    await waitFor(() => latestMembers(b.inbox).length === 2, 10_000);

    const sent = await react(a, { reaction: "fire", target: { kind: "crash-round" } });
    expect(sent.reaction).toMatchObject({
      reaction: "fire",
      target: { kind: "crash-round" },
      username: "Alice",
      discordId: alice.discordId,
      self: true,
    });
    const got = await b.inbox.wait((m) => m.type === "reaction");
    expect(got.body).toEqual({ ...sent.reaction, self: false });

    // Bob's seat at the shared table and Bob's table (as Alice watches it) reach Bob too.
    b.room.send("at", { game: "blackjack", sharedTable: { seat: 3 } });
    await waitFor(() => latestMembers(a.inbox).find((m) => m.username === "Bob")?.sharedTable?.seat === 3, 10_000);
    await react(a, { reaction: "clap", target: { kind: "seat", seat: 3 } });
    await react(a, { reaction: "wow", target: { kind: "table", discordId: bob.discordId } });
    await waitFor(() => reactions(b.inbox).length === 3, 10_000);
    expect(reactions(b.inbox).map((r) => [r.reaction, r.target])).toEqual([
      ["fire", { kind: "crash-round" }],
      ["clap", { kind: "seat", seat: 3 }],
      ["wow", { kind: "table", discordId: bob.discordId }],
    ]);

    // Dave, in another instance, reacts too: Alice and Bob never hear it, and he never heard theirs.
    await react(d, { reaction: "party", target: { kind: "crash-round" } });
    expect(reactions(d.inbox)).toHaveLength(1);
    expect(reactions(a.inbox).some((r) => r.username === "Dave")).toBe(false);
    expect(reactions(b.inbox).some((r) => r.username === "Dave")).toBe(false);

    // Outside an instance (a guest) there is nobody to react with.
    const guest = await react(g, { reaction: "clap", target: { kind: "crash-round" } });
    expect(guest.error).toEqual({ code: "reaction_refused", message: "Reactions need an activity instance" });
    expect(reactions(g.inbox)).toHaveLength(0);
    for (const m of [a, b, d, g]) await m.room.leave();
  });

  it("refuses the fourth of a burst, and a burst of the whole instance past its budget, and sends neither", async () => {
    const carol = await signIn("8300011", "Carol", "inst-react-c");
    const erin = await signIn("8300012", "Erin", "inst-react-c");
    const c = await joinTogether(carol.token, "inst-react-c");
    const e = await joinTogether(erin.token, "inst-react-c");
    await waitFor(() => latestMembers(e.inbox).length === 2, 10_000);

    for (let i = 0; i < 3; i++) expect((await react(c, { reaction: "laugh", target: { kind: "crash-round" } })).reaction).toBeDefined();
    const fourth = await react(c, { reaction: "laugh", target: { kind: "crash-round" } });
    expect(fourth.error).toEqual({ code: "rate_limited", message: "Too many reactions; one a second" });

    // Erin has her own budget, but the instance's (5) runs out at her third.
    expect((await react(e, { reaction: "cry", target: { kind: "crash-round" } })).reaction).toBeDefined();
    expect((await react(e, { reaction: "cry", target: { kind: "crash-round" } })).reaction).toBeDefined();
    const past = await react(e, { reaction: "cry", target: { kind: "crash-round" } });
    expect(past.error).toEqual({
      code: "rate_limited",
      message: "Too many reactions in this activity right now; try again in a moment",
    });
    await waitFor(() => reactions(c.inbox).length === 5, 10_000);
    expect(reactions(c.inbox).map((r) => r.reaction)).toEqual(["laugh", "laugh", "laugh", "cry", "cry"]);
    expect(reactions(e.inbox)).toHaveLength(5);
    await c.room.leave();
    await e.room.leave();
  });

  it("refuses anything but the fixed emoji on a known target, with the reason, and spends no budget on it", async () => {
    const frank = await signIn("8300021", "Frank", "inst-react-d");
    const gina = await signIn("8300022", "Gina", "inst-react-d");
    const zed = await signIn("8300029", "Zed", "inst-react-e");
    const f = await joinTogether(frank.token, "inst-react-d");
    const gi = await joinTogether(gina.token, "inst-react-d");
    await waitFor(() => latestMembers(gi.inbox).length === 2, 10_000);

    // A round of Gina's makes a row of the instance's feed, which may be reacted to.
    const casino = await joinCasino(t, gina.token);
    await ask(casino.room, casino.inbox, "bet", { game: "dice", amount: 10, params: { target: 50, direction: "under" } });
    const feed = await f.inbox.wait((m) => m.type === "feed" && m.body.instance.length > 0);
    const rowId: string = feed.body.instance[0].id;
    // Gina sits at seat 7 of the shared table.
    gi.room.send("at", { game: "blackjack", sharedTable: { seat: 7 } });
    await waitFor(() => latestMembers(f.inbox).find((m) => m.username === "Gina")?.sharedTable?.seat === 7, 10_000);

    const cases: Array<[unknown, string, string]> = [
      [
        { reaction: "hello", target: { kind: "crash-round" } },
        "invalid_message",
        "reaction: reaction must be one of clap, fire, laugh, wow, cry, party",
      ],
      [
        { reaction: "💩", target: { kind: "crash-round" } },
        "invalid_message",
        "reaction: reaction must be one of clap, fire, laugh, wow, cry, party",
      ],
      [{ reaction: "clap", target: { kind: "crash-round" }, text: "hi all" }, "invalid_message", 'Unrecognized key: "text"'],
      [{ reaction: "clap", target: { kind: "crash-round", text: "hi" } }, "invalid_message", 'target: Unrecognized key: "text"'],
      [{ reaction: "clap", target: { kind: "seat", seat: 8 } }, "invalid_message", "target.seat: seat must be from 1 to 7"],
      [
        { reaction: "clap", target: { kind: "seat", seat: 2.5 } },
        "invalid_message",
        "target.seat: seat must be a whole number from 1 to 7",
      ],
      [
        { reaction: "clap", target: { kind: "lobby" } },
        "invalid_message",
        "target.kind: target.kind must be one of seat, crash-round, table, feed",
      ],
      [
        { reaction: "clap", target: { kind: "feed", rowId: "<b>hi</b>" } },
        "invalid_message",
        "target.rowId: rowId must be a feed row's id",
      ],
      [{ reaction: "clap", target: { kind: "table", discordId: "me" } }, "invalid_message", "target.discordId: must be a Discord id"],
      [{ reaction: "clap", target: { kind: "seat", seat: 2 } }, "reaction_refused", "Nobody sits at that seat"],
      [
        { reaction: "clap", target: { kind: "feed", rowId: "skill:nope" } },
        "reaction_refused",
        "That round is not in this activity's feed",
      ],
      [
        { reaction: "clap", target: { kind: "table", discordId: zed.discordId } },
        "reaction_refused",
        "That player is not in this activity",
      ],
      [{ reaction: "clap", target: { kind: "table", discordId: frank.discordId } }, "reaction_refused", "That is your own table"],
    ];
    for (const [body, code, message] of cases) {
      expect((await react(f, body)).error, JSON.stringify(body)).toEqual({ code, message });
    }
    expect(reactions(gi.inbox)).toHaveLength(0);

    // None of those spent Frank's budget: his three of a burst all go, the row of the feed among them.
    const onRow = await react(f, { reaction: "party", target: { kind: "feed", rowId } });
    expect(onRow.reaction).toMatchObject({ reaction: "party", target: { kind: "feed", rowId }, username: "Frank" });
    expect((await react(f, { reaction: "fire", target: { kind: "table", discordId: gina.discordId } })).reaction).toBeDefined();
    expect((await react(f, { reaction: "fire", target: { kind: "seat", seat: 7 } })).reaction).toBeDefined();
    await waitFor(() => reactions(gi.inbox).length === 3, 10_000);

    // An anonymous player's reaction carries no name or Discord id.
    const anonymous = await t.request("PATCH", "/api/player/anonymous", {
      token: gina.token,
      body: { playerId: gina.player.id, enabled: true },
    });
    expect(anonymous.status).toBe(200);
    const hidden = await react(gi, { reaction: "wow", target: { kind: "crash-round" } });
    expect(hidden.reaction).toMatchObject({ username: "Anonymous", discordId: null });
    const seenByFrank = await f.inbox.wait((m) => m.type === "reaction" && m.body.id === hidden.reaction.id);
    expect(seenByFrank.body).toMatchObject({ username: "Anonymous", discordId: null, self: false });
    // ...and her table, hidden from the others, takes none.
    expect((await react(f, { reaction: "wow", target: { kind: "table", discordId: gina.discordId } })).error).toEqual({
      code: "reaction_refused",
      message: "That player plays anonymously",
    });
    await casino.room.leave();
    await f.room.leave();
    await gi.room.leave();
  });

  it("answers any value in place of the message or of its target with a known refusal, and sends nothing", async () => {
    const hal = await signIn("8300031", "Hal", "inst-react-f");
    const ida = await signIn("8300032", "Ida", "inst-react-f");
    const h = await joinTogether(hal.token, "inst-react-f");
    const i = await joinTogether(ida.token, "inst-react-f");
    await waitFor(() => latestMembers(i.inbox).length === 2, 10_000);
    const body = fc.oneof(
      fc.anything(),
      fc.record({ reaction: fc.oneof(fc.string(), fc.constantFrom("clap", "fire")), target: fc.anything() }),
      fc.record({ reaction: fc.anything(), target: fc.constant({ kind: "crash-round" }) }).filter((m) => m.reaction !== "clap"),
    );
    await fc.assert(
      fc.asyncProperty(body, async (message) => {
        const answer = await react(h, message);
        if (answer.reaction) return; // a valid one (rare): delivered as any other
        expect(["invalid_message", "reaction_refused", "rate_limited"]).toContain(answer.error.code);
        expect(typeof answer.error.message).toBe("string");
      }),
      { numRuns: 150 },
    );
    // What was refused reached nobody, and Hal's connection is still open: his next reaction reaches Ida.
    expect(reactions(i.inbox).length).toBe(reactions(h.inbox).length);
    if (reactions(h.inbox).length === 0) {
      const after = await react(h, { reaction: "clap", target: { kind: "crash-round" } });
      await i.inbox.wait((m) => m.type === "reaction" && m.body.id === after.reaction.id);
    }
    await h.room.leave();
    await i.room.leave();
  });
});
