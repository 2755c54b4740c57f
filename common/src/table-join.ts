import { z } from "zod";
import { instanceId } from "./api";

/**
 * The shared tables' join options (the blackjack table's and the Hold'em table's). `instanceId`: the
 * activity instance's table (the player's own session must have joined it), or null for the public
 * tables. `freeSeat: true` (public tables only) matches only a table with a free seat, and creates one
 * when every table is full; without it a public join may land at a full table, to watch. A given table
 * is joined by its room id (from `GET /api/tables` or `GET /api/holdem-tables`).
 */
export const tableJoinOptions = z
  .object({ instanceId: instanceId.nullable(), freeSeat: z.literal(true).optional() })
  .strict()
  .refine((o) => !(o.freeSeat && o.instanceId !== null), {
    path: ["freeSeat"],
    message: "an activity instance has one table: freeSeat is for the public tables",
  });
export type TableJoinOptions = z.infer<typeof tableJoinOptions>;
