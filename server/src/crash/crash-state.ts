import { ArraySchema, MapSchema, Schema, type } from "@colyseus/schema";
import type { CrashPhase, CrashRoomBet, CrashRoomGame, CrashRoomState } from "@casino/common";

/** One player's bet in the current round, as everyone in the room sees it. Multipliers in hundredths. */
export class CrashBetView extends Schema implements CrashRoomBet {
  @type("string") playerId = "";
  @type("string") username = "";
  /** The player's picture, "" for none (anonymous players and those without one show a generated face). */
  @type("string") avatarUrl = "";
  @type("number") amount = 0;
  /** 0 when the bet has no automatic cash-out. */
  @type("number") autoCashOut = 0;
  /** active, cashed_out, lost or refunded. */
  @type("string") status: CrashRoomBet["status"] = "active";
  @type("number") cashedOutAt = 0;
  @type("number") payout = 0;
  /** The seed of the generated face, "" for an anonymous player. */
  @type("string") face = "";
}

/** A finished game with its revealed hash: anyone can check it against the chain's terminating hash. */
export class CrashHistoryEntry extends Schema implements CrashRoomGame {
  @type("string") roundId = "";
  @type("number") gameNumber = 0;
  @type("number") crashPoint = 0;
  @type("string") gameHash = "";
  @type("string") terminatingHash = "";
  /** busted, or void when a restart cut the round short in its betting phase. */
  @type("string") phase = "busted";
  /** The payout rounding rule of the game's cash-outs (docs/crash-chain.md): 1 rounded down, 2 unbiased. */
  @type("number") rounding = 1;
}

/**
 * The shared crash room. Times are the server's epoch milliseconds; the multiplier follows
 * m(t) = e^(curveRate · t) from `runStartedAt` and is also ticked into `multiplier`.
 */
export class CrashState extends Schema implements CrashRoomState {
  /** waiting, betting, running or busted. */
  @type("string") phase: CrashPhase = "waiting";
  @type("string") roundId = "";
  @type("number") gameNumber = 0;
  @type("number") bettingEndsAt = 0;
  @type("number") runStartedAt = 0;
  @type("number") elapsedMs = 0;
  @type("number") multiplier = 100;
  /** Known to clients only after the bust. */
  @type("number") crashPoint = 0;
  @type("string") gameHash = "";
  @type("number") curveRate = 0;
  /** The commitment of the chain the rounds come from, published before its first game. */
  @type("string") terminatingHash = "";
  @type("string") salt = "";
  @type("number") chainLength = 0;
  @type({ map: CrashBetView }) bets = new MapSchema<CrashBetView>();
  /** The most recent games, newest first. */
  @type([CrashHistoryEntry]) history = new ArraySchema<CrashHistoryEntry>();
}
