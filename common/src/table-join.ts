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

/**
 * How long a public table keeps a seat for a connection matched to it with `freeSeat: true`, on the
 * table's clock: the seat counts as taken for matchmaking until the connection sits down, leaves the
 * room, or this time passes (a joiner who only watches stops holding it). Time enough to pick a seat
 * and a buy-in; a reservation never stops anyone else from taking a free seat first.
 */
export const TABLE_SEAT_RESERVATION_MS = 20_000;
