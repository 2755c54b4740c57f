import { z } from "zod";
import { MAX_BET, MIN_BET, STAKE_RULE_MESSAGE } from "./limits";

/** The amount of a bet in a message (the crash room's, the blackjack table's): the one stake rule (limits.ts). */
export const stakeAmount = z
  .number({ message: "amount must be a number" })
  .int("amount must be a whole number of coins")
  .min(MIN_BET, STAKE_RULE_MESSAGE)
  .max(MAX_BET, STAKE_RULE_MESSAGE);
