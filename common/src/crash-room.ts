import { z } from "zod";
import { crashParams } from "./games/crash/engine";
import { stakeAmount } from "./stake";
import { requestId } from "./request-id";

/*
 * The shared crash room: one room per Discord activity instance, one public room for everyone else.
 * Join with `{ instanceId }` (the SDK's instanceId inside Discord, null outside it).
 */
export const crashJoinOptions = z
  .object({
    instanceId: z
      .string()
      .min(1, "instanceId must not be empty")
      .max(128, "instanceId must be at most 128 characters")
      .regex(/^[A-Za-z0-9_-]+$/, "instanceId may hold letters, digits, '_' and '-' only")
      .nullable(),
  })
  .strict();
export type CrashJoinOptions = z.infer<typeof crashJoinOptions>;

/** A bet for the round in its betting phase, with an optional automatic cash-out (a multiplier, two decimals). */
export const crashBetMessage = z
  .object({
    requestId,
    amount: stakeAmount,
    autoCashOut: crashParams.shape.cashOutAt.nullable().optional(),
  })
  .strict();
export type CrashBetMessage = z.infer<typeof crashBetMessage>;

/** Cash out the player's bet of the running round at the current multiplier. */
export const crashCashOutMessage = z.object({ requestId }).strict();

export const CRASH_MESSAGES = { bet: "crash:bet", cashOut: "crash:cashout" } as const;

/** The room's phases: waiting (before the first round), betting, running, busted. */
export const CRASH_PHASES = ["waiting", "betting", "running", "busted"] as const;
export type CrashPhase = (typeof CRASH_PHASES)[number];

/** The answer (`result`) to a `crash:bet`. */
export interface CrashBetAnswer {
  requestId: string;
  roundId: string;
  gameNumber: number;
  amount: number;
  /** Hundredths (2.5× = 250), or null. */
  autoCashOut: number | null;
  balance: number;
}

/** The answer (`result`) to a `crash:cashout`, and what an automatic cash-out settles. */
export interface CrashCashOutAnswer {
  requestId: string;
  roundId: string;
  /** The multiplier paid, in hundredths. */
  cashedOutAt: number;
  amount: number;
  payout: number;
  balance: number;
}

/** A bet of the current round as everyone in the shared crash room sees it (multipliers in hundredths). */
export interface CrashRoomBet {
  playerId: string;
  username: string;
  /** The player's Discord picture, "" for none (anonymous players among them). */
  avatarUrl: string;
  amount: number;
  /** 0 when the bet has no automatic cash-out. */
  autoCashOut: number;
  status: "active" | "cashed_out" | "lost" | "refunded";
  cashedOutAt: number;
  payout: number;
  /** The seed of the generated face (a short hash of the player, the same on every surface), "" when anonymous. */
  face: string;
}

/** A finished game of the room with its revealed hash. */
export interface CrashRoomGame {
  roundId: string;
  gameNumber: number;
  crashPoint: number;
  gameHash: string;
  terminatingHash: string;
  /** busted, or void when a restart cut the round short in its betting phase. */
  phase: string;
  /** The payout rounding rule of the game's cash-outs: 1 rounded down, 2 unbiased (docs/crash-chain.md). */
  rounding: number;
}

/**
 * The shared crash room's synchronised state as plain data (the server's `CrashState` schema, see
 * server/src/crash/crash-state.ts). Times are the server's epoch milliseconds; multipliers hundredths.
 */
export interface CrashRoomSnapshot {
  phase: CrashPhase;
  roundId: string;
  gameNumber: number;
  bettingEndsAt: number;
  runStartedAt: number;
  elapsedMs: number;
  multiplier: number;
  /** 0 until the bust. */
  crashPoint: number;
  /** "" until the bust. */
  gameHash: string;
  curveRate: number;
  terminatingHash: string;
  salt: string;
  chainLength: number;
  bets: Record<string, CrashRoomBet>;
  /** Newest first. */
  history: CrashRoomGame[];
}

/**
 * The shared crash room's state as the room holds it and a client's SDK mirrors it (the server's
 * `CrashState` schema implements it): the snapshot, with the bets as a map by player id and the history
 * as a list. `toJSON()` of the mirrored state gives the `CrashRoomSnapshot`.
 */
export interface CrashRoomState extends Omit<CrashRoomSnapshot, "bets" | "history"> {
  bets: ReadonlyMap<string, CrashRoomBet>;
  history: ArrayLike<CrashRoomGame> & Iterable<CrashRoomGame>;
}
