import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/** The inputs that fix every outcome of one bet (game-rules B1). */
export interface FairnessInput {
  /** 64-character hex string; used as the HMAC key in its ASCII form. */
  serverSeed: string;
  clientSeed: string;
  nonce: number;
}

/** A source of floats in [0, 1). `cursor` counts the floats consumed so far. */
export interface Rng {
  next(): number;
  readonly cursor: number;
}

const FLOATS_PER_BLOCK = 8;

/** HMAC-SHA256(key = serverSeed, message = "clientSeed:nonce:round"). */
export function hmacBlock(input: FairnessInput, round: number): Uint8Array {
  const message = `${input.clientSeed}:${input.nonce}:${round}`;
  return hmac(sha256, utf8ToBytes(input.serverSeed), utf8ToBytes(message));
}

/** f = b0/256 + b1/256² + b2/256³ + b3/256⁴ (game-rules B2). */
export function bytesToFloat(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! * 2 ** 24 + bytes[offset + 1]! * 2 ** 16 + bytes[offset + 2]! * 2 ** 8 + bytes[offset + 3]!) >>> 0) / 2 ** 32;
}

/** The eight floats of one HMAC block. */
export function blockFloats(input: FairnessInput, round: number): number[] {
  const bytes = hmacBlock(input, round);
  return Array.from({ length: FLOATS_PER_BLOCK }, (_, i) => bytesToFloat(bytes, i * 4));
}

/**
 * The bet's endless float stream, starting after `startCursor` floats have been consumed. A multi-step
 * round keeps its cursor between steps, so each step continues the same stream.
 */
export function floatStream(input: FairnessInput, startCursor = 0): Rng {
  let cursor = startCursor;
  let cachedRound = -1;
  let cached: number[] = [];
  return {
    next() {
      const round = Math.floor(cursor / FLOATS_PER_BLOCK);
      if (round !== cachedRound) {
        cached = blockFloats(input, round);
        cachedRound = round;
      }
      const value = cached[cursor % FLOATS_PER_BLOCK]!;
      cursor += 1;
      return value;
    },
    get cursor() {
      return cursor;
    },
  };
}

/** A fixed list of floats as an Rng: for tests and hand-made rounds. Throws when exhausted. */
export function fixedRng(floats: readonly number[]): Rng {
  let cursor = 0;
  return {
    next() {
      if (cursor >= floats.length) throw new Error(`fixed float stream exhausted after ${floats.length} floats`);
      return floats[cursor++]!;
    },
    get cursor() {
      return cursor;
    },
  };
}

/** floor(f × n): an index in [0, n) (game-rules B3). Its bias is at most n / 2³² per outcome. */
export function pickIndex(rng: Rng, n: number): number {
  return Math.floor(rng.next() * n);
}

/** A 52-bit uniform value in [0, 1) built from two floats (26 bits of each). */
export function float52(rng: Rng): number {
  const high = Math.floor(rng.next() * 2 ** 26);
  const low = Math.floor(rng.next() * 2 ** 26);
  return (high * 2 ** 26 + low) / 2 ** 52;
}

/**
 * "Pick and remove" (a partial Fisher–Yates shuffle driven by the floats, game-rules B3): draws `count`
 * items from `items` without replacement, one float per item.
 */
export function drawWithoutReplacement<T>(rng: Rng, items: readonly T[], count: number): T[] {
  const remaining = [...items];
  const drawn: T[] = [];
  for (let i = 0; i < count; i++) {
    const index = pickIndex(rng, remaining.length);
    drawn.push(remaining.splice(index, 1)[0]!);
  }
  return drawn;
}

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export function hmacSha256Hex(key: string, message: string): string {
  return bytesToHex(hmac(sha256, utf8ToBytes(key), utf8ToBytes(message)));
}

/** The commitment shown before a seed is revealed. */
export const seedCommitment = (serverSeed: string): string => sha256Hex(serverSeed);

export function verifyCommitment(serverSeed: string, commitment: string): boolean {
  return sha256Hex(serverSeed) === commitment.toLowerCase();
}
