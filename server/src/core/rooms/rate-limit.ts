import type { Config } from "../../platform/config";
import type { BucketRule, Take, TokenBuckets } from "../../platform/redis/token-bucket";
import { countRateLimited } from "../metrics";

/** The room messages that cost the server real work, each with its own per-player budget. */
export type RoomLimit = "bet" | "seed" | "spin" | "reaction" | "instanceReactions";

export interface RoomLimitRule extends BucketRule {
  /** What the player is told when the budget is spent. */
  message: string;
}

/**
 * Per-player budgets for room messages, from configuration: bets (and round actions) at
 * BET_RATE_PER_SECOND with bursts of twice that; seed rotations and client-seed changes at
 * SEED_CHANGES_PER_MINUTE; daily-spin attempts at DAILY_SPINS_PER_MINUTE; reactions at
 * REACTIONS_PER_SECOND in bursts of REACTION_BURST. Shared by every connection of the player on every
 * process. `instanceReactions` is the budget of one activity instance (its key is the instance id): all
 * its members' reactions together, at INSTANCE_REACTIONS_PER_SECOND in bursts of INSTANCE_REACTION_BURST.
 */
export function roomLimitRules(config: Config): Record<RoomLimit, RoomLimitRule> {
  return {
    bet: { capacity: config.betRatePerSecond * 2, perSecond: config.betRatePerSecond, message: "Too many bets; slow down a little" },
    seed: {
      capacity: config.seedChangesPerMinute,
      perSecond: config.seedChangesPerMinute / 60,
      message: "Too many seed changes; wait a moment",
    },
    spin: {
      capacity: config.dailySpinsPerMinute,
      perSecond: config.dailySpinsPerMinute / 60,
      message: "Too many spin requests; wait a moment",
    },
    reaction: {
      capacity: config.reactionBurst,
      perSecond: config.reactionsPerSecond,
      message: "Too many reactions; one a second",
    },
    instanceReactions: {
      capacity: config.instanceReactionBurst,
      perSecond: config.instanceReactionsPerSecond,
      message: "Too many reactions in this activity right now; try again in a moment",
    },
  };
}

export class RoomLimiter {
  constructor(
    private readonly buckets: TokenBuckets,
    private readonly rules: Record<RoomLimit, RoomLimitRule>,
  ) {}

  /** Takes a token of `limit` from the budget of `owner` (a player id; an instance id for `instanceReactions`). */
  async take(limit: RoomLimit, owner: string): Promise<Take & { message: string }> {
    const rule = this.rules[limit];
    const take = await this.buckets.take(`room:${limit}:${owner}`, rule);
    if (!take.allowed) countRateLimited(limit);
    return { ...take, message: rule.message };
  }
}
