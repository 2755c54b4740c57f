import { hmacSha256Hex, sha256Hex } from "../fairness/stream";
import { limboResultHundredths } from "./limbo";

/**
 * Crash points and the hash chain behind the shared crash room (game-rules B5, bustabit v2).
 *
 * Chain: from a secret seed, hᵢ = SHA-256(lowercase hex of hᵢ₋₁), h₀ = the seed. Games consume it
 * backwards: with N games, game 1 uses h_N and game N uses h₁; the terminating hash SHA-256(h_N) is
 * published before game 1, so hashing game n's hash n times must give it. A revealed hash lets anyone
 * check every earlier game but predicts no later one (SHA-256 is one-way).
 *
 * Crash point: H = HMAC-SHA256(key = salt, message = game hash), r = the first 52 bits of H,
 * bust = max(1.00, floor(99 / (1 − r/2⁵²)) / 100). P(bust ≥ x) = 0.99 / x: every cash-out target
 * returns 99 %, and 1.98 % of games bust at 1.00×. The salt must be unknown when the chain is
 * committed (a future block hash), so the operator cannot have picked a favourable chain.
 */
export const CRASH_BITS = 52;
const HEX_DIGITS = CRASH_BITS / 4;
export const MIN_CRASH_HUNDREDTHS = 100n;

/** The crash point in hundredths from a uniform 52-bit value: the same curve as Limbo's result. */
export function bustHundredths(r52: bigint): bigint {
  const raw = limboResultHundredths(r52);
  return raw < MIN_CRASH_HUNDREDTHS ? MIN_CRASH_HUNDREDTHS : raw;
}

/** The first 52 bits of HMAC-SHA256(key = salt, message = game hash). */
export function gameHashBits(gameHash: string, salt: string): bigint {
  return BigInt(`0x${hmacSha256Hex(salt, gameHash).slice(0, HEX_DIGITS)}`);
}

/** A game's crash point in hundredths (1.00× = 100n), exact. */
export function crashPointHundredths(gameHash: string, salt: string): bigint {
  return bustHundredths(gameHashBits(gameHash, salt));
}

/** A game's crash point as a multiplier for display (exact up to 2⁵³ hundredths). */
export function crashPoint(gameHash: string, salt: string): number {
  return Number(crashPointHundredths(gameHash, salt)) / 100;
}

export interface HashChain {
  /** gameHashes[i] is the hash of game i + 1 (the chain in play order). */
  gameHashes: string[];
  /** SHA-256 of game 1's hash: the commitment published before any game. */
  terminatingHash: string;
}

/** Builds a chain of `games` game hashes from a secret seed (which is itself never a game hash). */
export function generateChain(seed: string, games: number): HashChain {
  if (!Number.isSafeInteger(games) || games < 1) throw new Error("a chain needs at least one game");
  const links: string[] = [];
  let hash = seed;
  for (let i = 0; i < games; i++) {
    hash = sha256Hex(hash);
    links.push(hash);
  }
  return { gameHashes: links.reverse(), terminatingHash: sha256Hex(hash) };
}

/**
 * The game number of `hash` in the chain that ends in `terminatingHash` (hashing it n times gives the
 * terminating hash), or null when that does not happen within `maxSteps` hashes.
 */
export function verifyChainElement(hash: string, terminatingHash: string, maxSteps: number): number | null {
  const target = terminatingHash.toLowerCase();
  let current = hash.toLowerCase();
  for (let n = 1; n <= maxSteps; n++) {
    current = sha256Hex(current);
    if (current === target) return n;
  }
  return null;
}
