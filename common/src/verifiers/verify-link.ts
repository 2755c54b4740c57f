import { isRoundingRule } from "../fairness/rounding";
import type { VerifyRequest } from "./verify";

/**
 * The verifier page's address: `/verify?game=…&serverSeed=…&clientSeed=…&nonce=…` with the optional
 * `serverSeedHash`, `amount`, `params`, `actions` (JSON) and `rounding` (the round's rounding rule; a
 * link without it is a round played before rules were recorded, rule 1). History rows, the seeds panel and anyone
 * sharing a round build it here, and the page reads it here, so the format exists once. Plain string
 * work (no URL or URLSearchParams), so this package stays free of DOM and Node APIs.
 */
export const VERIFY_PATH = "/verify";

/** What a link carries: a verify request whose fields may still be missing (a seed not yet revealed). */
export interface VerifyLinkFields {
  game: string;
  serverSeed?: string | null;
  serverSeedHash?: string | null;
  clientSeed: string;
  nonce: number;
  amount?: number | null;
  params?: unknown;
  actions?: readonly unknown[] | null;
  rounding?: number | null;
}

/** The query keys, in the order a link lists them. */
const KEYS = ["game", "serverSeed", "serverSeedHash", "clientSeed", "nonce", "amount", "params", "actions", "rounding"] as const;
type Key = (typeof KEYS)[number];

const encode = (value: string) => encodeURIComponent(value);

/** The query string (without "?") of a link to the verifier. Empty params and actions are left out. */
export function buildVerifyQuery(fields: VerifyLinkFields): string {
  const values: Partial<Record<Key, string>> = {
    game: fields.game,
    serverSeed: fields.serverSeed ?? undefined,
    serverSeedHash: fields.serverSeedHash ?? undefined,
    clientSeed: fields.clientSeed,
    nonce: String(fields.nonce),
    amount: fields.amount === null || fields.amount === undefined ? undefined : String(fields.amount),
    params: isEmpty(fields.params) ? undefined : JSON.stringify(fields.params),
    actions: fields.actions && fields.actions.length > 0 ? JSON.stringify(fields.actions) : undefined,
    rounding: fields.rounding === null || fields.rounding === undefined ? undefined : String(fields.rounding),
  };
  return KEYS.filter((k) => values[k] !== undefined && values[k] !== "")
    .map((k) => `${k}=${encode(values[k]!)}`)
    .join("&");
}

/** `/verify?…`: the verifier page, pre-filled with a round. */
export function verifyHref(fields: VerifyLinkFields): string {
  return `${VERIFY_PATH}?${buildVerifyQuery(fields)}`;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  return typeof value === "object" && !Array.isArray(value) && Object.keys(value as object).length === 0;
}

/** The link's fields as the page's form holds them: text, exactly as given (the player may edit any). */
export type VerifyForm = Record<Key, string>;

export const EMPTY_VERIFY_FORM: VerifyForm = {
  game: "",
  serverSeed: "",
  serverSeedHash: "",
  clientSeed: "",
  nonce: "",
  amount: "",
  params: "",
  actions: "",
  rounding: "",
};

/** Reads a query string ("?a=b&…" or "a=b&…") into the form's fields; unknown keys are ignored. */
export function parseVerifyQuery(search: string): VerifyForm {
  const form: VerifyForm = { ...EMPTY_VERIFY_FORM };
  const query = search.startsWith("?") ? search.slice(1) : search;
  for (const part of query.split("&")) {
    if (!part) continue;
    const eq = part.indexOf("=");
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const rawValue = eq < 0 ? "" : part.slice(eq + 1);
    const key = decode(rawKey);
    if ((KEYS as readonly string[]).includes(key)) form[key as Key] = decode(rawValue);
  }
  return form;
}

/** A query component: "+" is a space (form encoding), a broken escape is kept as written. */
function decode(text: string): string {
  const spaced = text.replace(/\+/g, " ");
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Either a request ready for `verifyRound`, or what is wrong with the form, field by field. */
export type VerifyFormResult = { ok: true; request: VerifyRequest } | { ok: false; errors: Partial<Record<Key, string>> };

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** Checks the form's text and turns it into a verify request. */
export function verifyRequestOf(form: VerifyForm): VerifyFormResult {
  const errors: Partial<Record<Key, string>> = {};
  const game = form.game.trim();
  if (!game) errors.game = "Choose a game";
  const serverSeed = form.serverSeed.trim();
  if (!serverSeed) errors.serverSeed = "Enter the revealed server seed";
  const serverSeedHash = form.serverSeedHash.trim();
  if (serverSeedHash && !HEX64.test(serverSeedHash)) errors.serverSeedHash = "A SHA-256 hash is 64 hexadecimal characters";
  const clientSeed = form.clientSeed;
  if (!clientSeed) errors.clientSeed = "Enter the client seed";
  const nonce = Number(form.nonce.trim());
  if (form.nonce.trim() === "" || !Number.isInteger(nonce) || nonce < 0) errors.nonce = "The nonce is a whole number from 0";
  let amount: number | undefined;
  if (form.amount.trim() !== "") {
    amount = Number(form.amount.trim());
    if (!Number.isInteger(amount) || amount <= 0) errors.amount = "The amount is a whole number of coins";
  }
  const params = parseJson(form.params, {});
  if (params === INVALID) errors.params = 'Params must be JSON, for example {"target":50,"direction":"over"}';
  const actions = parseJson(form.actions, []);
  if (actions === INVALID || !Array.isArray(actions)) errors.actions = 'Actions must be a JSON list, for example [{"type":"hit"}]';
  const roundingText = form.rounding.trim();
  const rounding = roundingText === "" ? undefined : Number(roundingText);
  if (rounding !== undefined && !isRoundingRule(rounding)) errors.rounding = "The rounding rule is 1 or 2";
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      game,
      serverSeed,
      serverSeedHash: serverSeedHash || undefined,
      clientSeed,
      nonce,
      amount,
      params,
      actions: actions as unknown[],
      ...(isRoundingRule(rounding) ? { rounding } : {}),
    },
  };
}

const INVALID = Symbol("invalid");

function parseJson(text: string, empty: unknown): unknown {
  if (text.trim() === "") return empty;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return INVALID;
  }
}

/** `/verify?shoe=<id>`: the verifier page on a shoe of the shared blackjack table (its record is fetched by id). */
export const shoeVerifyHref = (shoeId: string): string => `${VERIFY_PATH}?shoe=${encodeURIComponent(shoeId)}`;

/** `/verify?holdemHand=<id>`: the verifier page on a finished hand of the Hold'em table (its record is fetched by id). */
export const holdemHandVerifyHref = (handId: string): string => `${VERIFY_PATH}?holdemHand=${encodeURIComponent(handId)}`;

/** The value of one key of a verifier address, or null when it has none. */
function queryValue(search: string, key: string): string | null {
  const query = search.startsWith("?") ? search.slice(1) : search;
  for (const part of query.split("&")) {
    const eq = part.indexOf("=");
    if (decode(eq < 0 ? part : part.slice(0, eq)) === key) return eq < 0 ? "" : decode(part.slice(eq + 1)).trim();
  }
  return null;
}

/** The shoe id a verifier address names (`?shoe=`), or null when it names none. */
export const shoeOfVerifyQuery = (search: string): string | null => queryValue(search, "shoe");

/** The Hold'em hand id a verifier address names (`?holdemHand=`), or null when it names none. */
export const holdemHandOfVerifyQuery = (search: string): string | null => queryValue(search, "holdemHand");
