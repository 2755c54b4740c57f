import { createHash } from "node:crypto";

/**
 * The seed of a player's generated face (the client draws it with boring-avatars): the one rule, used by
 * every shape that shows a member with an avatar (the boards, the strip, Tonight, a race, the crash
 * room's bets, the tables' seats). It is the player's, not their name's: two players of one name get two
 * faces, and a rename keeps the face. It is a short hash of the player id, not the id, and a hidden
 * (anonymous) player is sent no seed at all (null): the face tells nothing of who they are.
 */
export function faceOf(playerId: string): string {
  return createHash("sha256").update(`face:${playerId}`).digest("base64url").slice(0, 16);
}

/** The face as a viewer is sent it: null for a player hidden from them. */
export const faceShown = (playerId: string, hidden: boolean): string | null => (hidden ? null : faceOf(playerId));
