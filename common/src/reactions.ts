/**
 * Reactions: a fixed set of emoji a member of an activity instance sends on what the others see with
 * them (a seat of the instance's blackjack table, the instance's crash round, a member's table being
 * watched, a row of the instance's feed). They travel on the together room (`react`, answered by a
 * `reaction` push to every member of the instance) and float over what they react to for a few seconds.
 * No free text: only these names are accepted. No zod here (the client's entry imports this file); the
 * schema is `togetherReactMessage` in together-schemas.ts.
 */

/** The reactions, by the name the protocol carries, with the emoji shown and the name read aloud. */
export const REACTIONS = {
  clap: { emoji: "👏", label: "Applause" },
  fire: { emoji: "🔥", label: "Fire" },
  laugh: { emoji: "😂", label: "Laughing" },
  wow: { emoji: "😮", label: "Wow" },
  cry: { emoji: "😭", label: "Crying" },
  party: { emoji: "🎉", label: "Party" },
} as const;
export type ReactionName = keyof typeof REACTIONS;
export const REACTION_NAMES = Object.keys(REACTIONS) as [ReactionName, ...ReactionName[]];

/**
 * What a reaction is on:
 * - `seat`: a seat (1 to 7) of the instance's shared blackjack table;
 * - `crash-round`: the instance's shared crash round;
 * - `table`: the table of the member with this Discord id (as the watchers of that table see it, and its player);
 * - `feed`: the row of the instance's feed with this id (`FeedRow.id`).
 */
export type ReactionTarget =
  { kind: "seat"; seat: number } | { kind: "crash-round" } | { kind: "table"; discordId: string } | { kind: "feed"; rowId: string };

/** The body of a `reaction` push: who sent it (an anonymous member as "Anonymous", no Discord id), what, on what. */
export interface ReactionPush {
  /** Unique per reaction (the client's key for the floating emoji). */
  id: string;
  reaction: ReactionName;
  target: ReactionTarget;
  username: string;
  discordId: string | null;
  /** The receiving client sent it. */
  self: boolean;
}

/** How long a reaction floats over its target. */
export const REACTION_SHOW_MS = 3_000;

/** One string per target, to match a reaction with what shows it. */
export function reactionTargetKey(target: ReactionTarget): string {
  switch (target.kind) {
    case "seat":
      return `seat:${target.seat}`;
    case "crash-round":
      return "crash-round";
    case "table":
      return `table:${target.discordId}`;
    case "feed":
      return `feed:${target.rowId}`;
  }
}
