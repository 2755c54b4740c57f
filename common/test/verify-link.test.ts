import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/fairness/stream";
import { DAILY_SPIN } from "../src/constants";
import { verifyRound } from "../src/verifiers/verify";
import {
  buildVerifyQuery,
  holdemHandOfVerifyQuery,
  holdemHandVerifyHref,
  parseVerifyQuery,
  shoeOfVerifyQuery,
  shoeVerifyHref,
  verifyHref,
  verifyRequestOf,
  VERIFY_PATH,
} from "../src/verifiers/verify-link";

const serverSeed = sha256Hex("verify links");
const serverSeedHash = sha256Hex(serverSeed);

/** Finishes a blackjack round through the verifier, so the link carries real actions. */
function blackjackRound(nonce: number) {
  const actions: unknown[] = [];
  for (;;) {
    const v = verifyRound({ serverSeed, clientSeed: "links&co", nonce, game: "blackjack", amount: 40, params: {}, actions });
    if (v.done) return { v, actions };
    const view = v.view as { phase: string; active: number; hands: { total: number }[] };
    actions.push(
      view.phase === "insurance" ? { type: "insurance", take: false } : { type: view.hands[view.active]!.total < 17 ? "hit" : "stand" },
    );
  }
}

describe("verify links", () => {
  it("round-trips every field, whatever characters the client seed holds", () => {
    const clientSeed = "a&b=c+d%e?f#g/h";
    const href = verifyHref({
      game: "dice",
      serverSeed,
      serverSeedHash,
      clientSeed,
      nonce: 7,
      amount: 25,
      params: { target: 50, direction: "over" },
      actions: [{ type: "x" }],
    });
    expect(href.startsWith(`${VERIFY_PATH}?`)).toBe(true);
    const form = parseVerifyQuery(href.slice(VERIFY_PATH.length));
    expect(form).toEqual({
      game: "dice",
      serverSeed,
      serverSeedHash,
      clientSeed,
      nonce: "7",
      amount: "25",
      params: '{"target":50,"direction":"over"}',
      actions: '[{"type":"x"}]',
      rounding: "",
    });
    // An independent reader (the WHATWG URL parser a browser uses) reads the same values.
    const url = new URL(href, "https://casino.example");
    expect(url.pathname).toBe(VERIFY_PATH);
    expect(url.searchParams.get("clientSeed")).toBe(clientSeed);
    expect(JSON.parse(url.searchParams.get("params")!)).toEqual({ target: 50, direction: "over" });
  });

  it("leaves out what a round does not have: no seed before it is revealed, no empty params or actions", () => {
    const query = buildVerifyQuery({
      game: "slots",
      serverSeed: null,
      serverSeedHash,
      clientSeed: "c",
      nonce: 0,
      amount: 10,
      params: {},
      actions: [],
    });
    expect(query).toBe(`game=slots&serverSeedHash=${serverSeedHash}&clientSeed=c&nonce=0&amount=10`);
    expect(parseVerifyQuery(query).serverSeed).toBe("");
  });

  it("a multi-step round goes through a link and re-derives to the same outcome", () => {
    // the first nonce whose round needs actions (a dealt blackjack is over at once)
    let nonce = 0;
    while (blackjackRound(nonce).actions.length === 0) nonce++;
    const { v, actions } = blackjackRound(nonce);
    const href = verifyHref({
      game: "blackjack",
      serverSeed,
      serverSeedHash,
      clientSeed: "links&co",
      nonce,
      amount: 40,
      params: {},
      actions,
    });
    const parsed = verifyRequestOf(parseVerifyQuery(href.split("?")[1]!));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const again = verifyRound(parsed.request);
    expect(again.commitment.matches).toBe(true);
    expect(again.totalStake).toBe(v.totalStake);
    expect(again.totalPayout).toBe(v.totalPayout);
    expect(again.view).toEqual(v.view);
  });

  it("a daily spin needs no amount", () => {
    const parsed = verifyRequestOf(parseVerifyQuery(buildVerifyQuery({ game: DAILY_SPIN, serverSeed, clientSeed: "c", nonce: 2 })));
    expect(parsed.ok).toBe(true);
    if (parsed.ok)
      expect(verifyRound(parsed.request).totalPayout).toBe(
        verifyRound({ serverSeed, clientSeed: "c", nonce: 2, game: DAILY_SPIN }).totalPayout,
      );
  });

  it("names each field that is wrong", () => {
    const result = verifyRequestOf(parseVerifyQuery("game=dice&serverSeedHash=abc&nonce=-1&amount=1.5&params={bad&actions={}"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.errors).sort()).toEqual([
      "actions",
      "amount",
      "clientSeed",
      "nonce",
      "params",
      "serverSeed",
      "serverSeedHash",
    ]);
  });

  it("reads form encoding and keeps a broken escape as written", () => {
    expect(parseVerifyQuery("?clientSeed=two+words&game=%E2%9C%93&nonce=%ZZ")).toMatchObject({
      clientSeed: "two words",
      game: "✓",
      nonce: "%ZZ",
    });
  });
});

describe("a shoe's verify link", () => {
  it("names the shoe, and the page reads it back; an address without one names none", () => {
    const id = "eb64a6a2-d8e9-4582-bcbf-9b7d397e89c2";
    const href = shoeVerifyHref(id);
    expect(href).toBe(`${VERIFY_PATH}?shoe=${id}`);
    expect(shoeOfVerifyQuery(href.slice(VERIFY_PATH.length))).toBe(id);
    expect(shoeOfVerifyQuery(`?game=dice&shoe=${encodeURIComponent(" a&b ")}`)).toBe("a&b");
    expect(shoeOfVerifyQuery("?shoe")).toBe("");
    expect(shoeOfVerifyQuery("?game=dice&nonce=1")).toBeNull();
    expect(shoeOfVerifyQuery("")).toBeNull();
  });
});

describe("a Hold'em hand's verify link", () => {
  it("names the hand, and the page reads it back; a shoe's address names no hand", () => {
    const id = "0b2f9c1e-4d1a-4a53-9a0e-5d7f1c2b3a4d";
    const href = holdemHandVerifyHref(id);
    expect(href).toBe(`${VERIFY_PATH}?holdemHand=${id}`);
    expect(holdemHandOfVerifyQuery(href.slice(VERIFY_PATH.length))).toBe(id);
    expect(shoeOfVerifyQuery(href.slice(VERIFY_PATH.length))).toBeNull();
    expect(holdemHandOfVerifyQuery(shoeVerifyHref(id).slice(VERIFY_PATH.length))).toBeNull();
    expect(holdemHandOfVerifyQuery("?holdemHand")).toBe("");
  });
});
