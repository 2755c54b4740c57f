import { floatStream, hmacSha256Hex, sha256Hex, type Rng } from "../fairness/stream";
import { describeRounding, payerFor, roundingRuleName, type RoundingDraw, type RoundingRule } from "../fairness/rounding";
import { limboResultHundredths } from "./limbo/engine";

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

/** Hashes `text` `times` times over (each step hashes the previous step's lowercase hex). */
export function hashTimes(text: string, times: number): string {
  let hash = text;
  for (let i = 0; i < times; i++) hash = sha256Hex(hash);
  return hash;
}

/**
 * Game `gameNumber`'s hash in a chain of `length` games grown from `seed`, without building the whole
 * chain: game n uses link N − n + 1 (the same value as generateChain(seed, length).gameHashes[n − 1]).
 */
export function chainGameHash(seed: string, length: number, gameNumber: number): string {
  if (!Number.isSafeInteger(gameNumber) || gameNumber < 1 || gameNumber > length)
    throw new Error(`game ${gameNumber} is outside a chain of ${length}`);
  return hashTimes(seed, length - gameNumber + 1);
}

/** The commitment of a chain of `length` games grown from `seed`: SHA-256 of game 1's hash. */
export const chainTerminatingHash = (seed: string, length: number): string => hashTimes(seed, length + 1);

/**
 * The salt of the shared room's chains. A salt chosen after the chain is committed (bustabit takes a
 * later bitcoin block's hash) would stop an operator from searching for a favourable chain; this
 * project has no such outside source yet, so the salt is this published constant and the chain's seed
 * comes from the operating system's random generator. See docs/crash-chain.md.
 */
export const CRASH_CHAIN_SALT = "casino-shared-crash-v1";

/** The shared room's multiplier curve: m(t) = e^(rate · t) with t in milliseconds (bustabit's 0.00006). */
export const CRASH_CURVE_RATE = 0.00006;

/** The multiplier shown `elapsedMs` into a run, in hundredths, rounded down (1.00× = 100). */
export function crashMultiplierAt(elapsedMs: number, ratePerMs = CRASH_CURVE_RATE): number {
  if (elapsedMs <= 0) return 100;
  return Math.floor(100 * Math.exp(ratePerMs * elapsedMs));
}

/** The first whole millisecond of a run at which the multiplier reaches `hundredths` (the bust time). */
export function crashReachedAtMs(hundredths: number, ratePerMs = CRASH_CURVE_RATE): number {
  if (hundredths <= 100) return 0;
  let t = Math.max(0, Math.ceil(Math.log(hundredths / 100) / ratePerMs));
  while (t > 0 && crashMultiplierAt(t - 1, ratePerMs) >= hundredths) t -= 1;
  while (crashMultiplierAt(t, ratePerMs) < hundredths) t += 1;
  return t;
}

/** What anyone can check about a revealed game: its place in the chain and its crash point. */
export function verifyCrashGame(game: { gameHash: string; terminatingHash: string; salt: string; maxGames: number }): {
  gameNumber: number | null;
  crashPointHundredths: number;
} {
  return {
    gameNumber: verifyChainElement(game.gameHash, game.terminatingHash, game.maxGames),
    crashPointHundredths: Number(crashPointHundredths(game.gameHash, game.salt)),
  };
}

/**
 * The float stream a cash-out in the shared room is rounded from (rule 2): section 2's stream of
 * docs/fairness.md with the game's hash as the server seed, the player's id as the client seed and
 * nonce 0. One bet per player and game, so it is the bet's own stream; the game hash is secret until the
 * bust and fixed by the chain's commitment, the player's id fixed long before, so neither the player nor
 * the server can choose the draw, and it is independent of the crash point (HMAC with another key).
 */
export const crashBetStream = (gameHash: string, playerId: string): Rng =>
  floatStream({ serverSeed: gameHash, clientSeed: playerId, nonce: 0 });

export interface CrashCashOut {
  gameHash: string;
  playerId: string;
  amount: number;
  /** the multiplier cashed out at, in hundredths */
  cashedOutAt: number;
}

/**
 * What a cash-out in the shared room pays: amount × cashedOutAt / 100, made whole by the round's rule
 * (rule 1 rounded down; rule 2 unbiased, from the bet's stream at cursor 0) and capped. `draw` is the
 * rounding, for the verifier, when it drew.
 */
export function crashCashOutPayout(rule: RoundingRule, bet: CrashCashOut): { payout: number; draw: RoundingDraw | null } {
  let draw: RoundingDraw | null = null;
  const pay = payerFor(rule, crashBetStream(bet.gameHash, bet.playerId), (d) => (draw = d));
  const payout = pay(bet.amount, bet.cashedOutAt, 100);
  return { payout, draw };
}

/**
 * A cash-out in the shared room checked by hand, in words (the verifier's crash-room mode): the game's
 * place in the chain and crash point when the commitment is given, then the payout and its rounding.
 */
export function describeCrashCashOut(
  rule: RoundingRule,
  bet: CrashCashOut,
  chain?: { terminatingHash: string; salt: string; length: number },
): { lines: string[]; payout: number; verified: boolean } {
  const lines = [`crash room game hash: ${bet.gameHash}`];
  let verified = true;
  if (chain) {
    const game = verifyCrashGame({
      gameHash: bet.gameHash,
      terminatingHash: chain.terminatingHash,
      salt: chain.salt,
      maxGames: chain.length,
    });
    verified = game.gameNumber !== null && bet.cashedOutAt <= game.crashPointHundredths;
    lines.push(
      game.gameNumber === null
        ? `chain: NOT in the chain committed to ${chain.terminatingHash} (within ${chain.length} games)`
        : `chain: game ${game.gameNumber} of the chain committed to ${chain.terminatingHash}; crash point ${(game.crashPointHundredths / 100).toFixed(2)}×`,
    );
    if (game.gameNumber !== null && bet.cashedOutAt > game.crashPointHundredths)
      lines.push(`cash-out at ${(bet.cashedOutAt / 100).toFixed(2)}× is ABOVE the crash point: not a cash-out this game allowed`);
  }
  lines.push(`payout rounding: rule ${rule} (${roundingRuleName(rule)})`);
  if (rule === 2) lines.push(`bet's stream: HMAC-SHA256(key = game hash, "${bet.playerId}:0:r")`);
  const { payout, draw } = crashCashOutPayout(rule, bet);
  lines.push(`cash-out: ${bet.amount} × ${bet.cashedOutAt} / 100`);
  lines.push(
    draw ? `  ${describeRounding(draw)}` : `  ${rule === 1 ? "rounded down" : "whole (or at the cap): nothing drawn"}: pays ${payout}`,
  );
  lines.push(`crash room: staked ${bet.amount}, paid ${payout}`);
  return { lines, payout, verified };
}
