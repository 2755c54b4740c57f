import { z } from "zod";
import { GAME_IDS } from "./catalogue";
import { instanceId, snowflake } from "./api";
import { TABLE_SEATS } from "./games/shoe";
import { HOLDEM_TABLE_SEATS } from "./games/holdem/config";
import { REACTION_NAMES } from "./reactions";
import {
  FEED_ROW_KINDS,
  RACE_MINUTES,
  RACE_PHASES,
  SEED_HASH_HEX,
  type FeedPush,
  type RacePush,
  type RaceView,
  type TonightBoardPush,
} from "./together";

/** The together room's and the round lookup's inputs (see together.ts). */
export const togetherJoinOptions = z.object({ instanceId: instanceId.nullable() }).strict();
export type TogetherJoinOptions = z.infer<typeof togetherJoinOptions>;

/**
 * Client → server `at`: the table the player sits at now (null: the lobby) and, at blackjack, whether
 * the player is at the instance's shared table (the seat, or null while watching it); at the instance's
 * Hold'em table (not a game of the catalogue: `game` null), the seat there, or null while watching it.
 */
export const togetherAtMessage = z
  .object({
    game: z.enum(GAME_IDS).nullable(),
    sharedTable: z
      .object({ seat: z.number().int().min(1).max(TABLE_SEATS).nullable() })
      .strict()
      .nullable()
      .default(null),
    holdemTable: z
      .object({ seat: z.number().int().min(1).max(HOLDEM_TABLE_SEATS).nullable() })
      .strict()
      .nullable()
      .default(null),
  })
  .strict()
  .refine((m) => m.sharedTable === null || m.game === "blackjack", { message: "Only blackjack has a shared table", path: ["sharedTable"] })
  .refine((m) => m.holdemTable === null || m.game === null, { message: "The Hold'em table is not a game's table", path: ["holdemTable"] });
export type TogetherAtMessage = z.infer<typeof togetherAtMessage>;

/** Client → server `watch`: the member (Discord id) whose table the player watches now (null: none). */
export const togetherWatchMessage = z.object({ discordId: snowflake.nullable() }).strict();
export type TogetherWatchMessage = z.infer<typeof togetherWatchMessage>;

/** Client → server `react`: one of the fixed reactions (no free text) on one target (see reactions.ts). */
export const togetherReactMessage = z
  .object({
    reaction: z.enum(REACTION_NAMES, { message: `reaction must be one of ${REACTION_NAMES.join(", ")}` }),
    target: z.discriminatedUnion(
      "kind",
      [
        z
          .object({
            kind: z.literal("seat"),
            seat: z
              .number({ message: `seat must be a number from 1 to ${TABLE_SEATS}` })
              .int(`seat must be a whole number from 1 to ${TABLE_SEATS}`)
              .min(1, `seat must be from 1 to ${TABLE_SEATS}`)
              .max(TABLE_SEATS, `seat must be from 1 to ${TABLE_SEATS}`),
          })
          .strict(),
        z.object({ kind: z.literal("crash-round") }).strict(),
        z.object({ kind: z.literal("table"), discordId: snowflake }).strict(),
        z
          .object({
            kind: z.literal("feed"),
            rowId: z.string().regex(/^[a-z0-9:-]{1,200}$/, "rowId must be a feed row's id"),
          })
          .strict(),
      ],
      { message: "target.kind must be one of seat, crash-round, table, feed" },
    ),
  })
  .strict();
export type TogetherReactMessage = z.infer<typeof togetherReactMessage>;

/** The path parameters of `GET /api/rounds/:serverSeedHash/:nonce/verify`. */
export const roundRef = z
  .object({
    serverSeedHash: z.string().regex(SEED_HASH_HEX, "serverSeedHash must be 64 lowercase hex digits"),
    nonce: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  })
  .strict();

/** Server → client `feed`: one settled round (`FeedRow` in together.ts). */
export const togetherFeedRow = z
  .object({
    id: z.string().min(1),
    kind: z.enum(FEED_ROW_KINDS),
    username: z.string(),
    avatarUrl: z.string().nullable(),
    anonymous: z.boolean(),
    game: z.string(),
    stake: z.number().int().min(0),
    payout: z.number().int().min(0),
    multiplier: z.number().min(0).nullable(),
    big: z.boolean(),
    at: z.string(),
    serverSeedHash: z.string().nullable(),
    nonce: z.number().int().min(0).nullable(),
  })
  .strict();

/** Server → client `feed`: rounds folded into one entry (`FeedFolded`). */
export const togetherFeedFolded = z
  .object({ kind: z.literal("folded"), id: z.string().min(1), rounds: z.number().int().min(1), at: z.string() })
  .strict();

const feedEntry = z.discriminatedUnion("kind", [togetherFeedRow, togetherFeedFolded]);

/** Server → client `feed` push (`FeedPush`): what the client reads, checked before it is shown. */
export const togetherFeedPush = z.object({ instance: z.array(feedEntry), global: z.array(feedEntry) }).strict();

/** Checked when compiled: the schema reads exactly the shape the server writes (`FeedPush`). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const FEED_PUSH_SCHEMA_MATCHES: Same<FeedPush, z.infer<typeof togetherFeedPush>> = true;

const tonightVerify = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("round"), serverSeedHash: z.string().regex(SEED_HASH_HEX), nonce: z.number().int().min(0) }).strict(),
  z.object({ kind: z.literal("shoe"), shoeId: z.string().min(1), round: z.number().int().min(0) }).strict(),
  z.object({ kind: z.literal("chain"), gameNumber: z.number().int().min(0) }).strict(),
]);

/** A member in a ranked list of the activity (the Tonight board, a race) as the viewers are shown them. */
const shownPlayer = {
  rank: z.number().int().min(1),
  discordId: snowflake.nullable(),
  username: z.string(),
  avatarUrl: z.string().nullable(),
  face: z.string().nullable(),
  hidden: z.boolean(),
};
/** The same, in a list written for one viewer (a race), which marks the viewer's own row. */
const shownMember = { ...shownPlayer, self: z.boolean() };

/** Server → client `board`: the instance's tonight board (see TonightBoardPush in together.ts). */

export const tonightBoardPush = z
  .object({
    instanceId,
    day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    rows: z.array(
      z
        .object({
          ...shownPlayer,
          net: z.number().int(),
          rounds: z.number().int().min(0),
          hands: z.number().int().min(0),
          streak: z.number().int(),
          biggestWin: z
            .object({
              game: z.string(),
              stake: z.number().int().min(0),
              payout: z.number().int().min(0),
              net: z.number().int().positive(),
              verify: tonightVerify.nullable(),
            })
            .strict()
            .nullable(),
          since: z.string(),
        })
        .strict(),
    ),
  })
  .strict();

/** Checked when compiled: the schema reads exactly the shape the server writes (`TonightBoardPush`). */
export const TONIGHT_PUSH_SCHEMA_MATCHES: Same<TonightBoardPush, z.infer<typeof tonightBoardPush>> = true;

/** Client → server `race-start`: a race of the player's instance for 5, 10 or 15 minutes. */
export const togetherRaceStartMessage = z
  .object({
    minutes: z.literal(RACE_MINUTES, { message: `minutes must be one of ${RACE_MINUTES.join(", ")}` }),
  })
  .strict();
export type TogetherRaceStartMessage = z.infer<typeof togetherRaceStartMessage>;

/** Client → server `race-join`: no fields (the instance's race, while its join window is open). */
export const togetherRaceJoinMessage = z.object({}).strict();

/** The path parameter of `GET /api/races/:raceId`. */
export const raceRef = z.object({ raceId: z.string().uuid("raceId must be a race's id") }).strict();

const raceView = z
  .object({
    id: z.string().uuid(),
    phase: z.enum(RACE_PHASES),
    minutes: z.literal(RACE_MINUTES),
    startedBy: z.string(),
    joinClosesAt: z.string(),
    endsAt: z.string(),
    now: z.string(),
    joined: z.boolean(),
    rows: z.array(
      z
        .object({
          ...shownMember,
          net: z.number().int(),
          rounds: z.number().int().min(0),
          winner: z.boolean(),
        })
        .strict(),
    ),
  })
  .strict();

/** A race as `GET /api/races/:raceId` answers it (the viewer's view of it). */
export const raceViewSchema = raceView;

/** Server → client `race`: the instance's race (see RacePush in together.ts). */
export const racePush = z.object({ instanceId, race: raceView.nullable() }).strict();

/** Checked when compiled: the schemas read exactly the shapes the server writes (`RacePush`, `RaceView`). */
export const RACE_PUSH_SCHEMA_MATCHES: Same<RacePush, z.infer<typeof racePush>> = true;
export const RACE_VIEW_SCHEMA_MATCHES: Same<RaceView, z.infer<typeof raceView>> = true;
