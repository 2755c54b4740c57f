import { z } from "zod";
import { instanceId } from "./api";
import { blackjackActions } from "./games/blackjack/engine";
import { seatSeed, seatNumber } from "./games/shoe";
import { recordedShoeRound, shoeRound } from "./games/blackjack-table";
import type { RevealedShoe } from "./table";
import { SEED_HASH_HEX } from "./together";
import { stakeAmount } from "./stake";
import { requestId } from "./request-id";

/** The `blackjack-table` room's inputs (see table.ts); every message is validated whole with these. */

export { tableJoinOptions, type TableJoinOptions } from "./table-join";

export const tableSitMessage = z.object({ requestId, seat: seatNumber }).strict();
export const tableLeaveMessage = z.object({ requestId }).strict();
export const tableBetMessage = z
  .object({
    requestId,
    amount: stakeAmount,
  })
  .strict();
export const tableReadyMessage = z.object({ requestId }).strict();
export const tableActMessage = z.object({ requestId, action: blackjackActions }).strict();
export type TableActMessage = z.infer<typeof tableActMessage>;

/** `GET /api/tables?instanceId=` (and `GET /api/holdem-tables`): the instance's table, or (without one) the public tables. */
export const tableListQuery = z.object({ instanceId: instanceId.optional() }).strict();

/** `GET /api/tables/shoes/:id`. */
export const shoeIdParam = z.object({ id: z.uuid("A shoe id is a UUID, as the table's fairness panel shows it") }).strict();

/** The answer of `GET /api/tables/shoes/:id` (`RevealedShoe`), as the verifier page reads it back. */
export const revealedShoe = z
  .object({
    id: z.uuid(),
    serverSeed: z.string().min(1),
    serverSeedHash: z.string().regex(SEED_HASH_HEX, "serverSeedHash must be 64 lowercase hex digits"),
    seats: z.array(seatSeed),
    rounding: z.union([z.literal(1), z.literal(2)]),
    rounds: z.array(shoeRound),
    outcomes: z.array(recordedShoeRound),
  })
  .strict() satisfies z.ZodType<RevealedShoe>;
