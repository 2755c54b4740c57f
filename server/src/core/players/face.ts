import { createHash } from "node:crypto";

/**
 * The seed of a player's generated face (the client draws it with boring-avatars): the one rule, used by
 * every shape that shows a member with an avatar (the boards, the strip, Tonight, a race, the crash
 * room's bets, the tables' seats). It is the player's, not their name's: two players of one name get two
 * faces, and a rename keeps the face. It is a short hash of the player id, not the id, and a hidden
 * (anonymous) player is sent no seed at all (null): the face tells nothing of who they are.
 */
export function faceOf(playerId: string): string {
  let face = faces.get(playerId);
  if (face === undefined) {
    face = createHash("sha256").update(`face:${playerId}`).digest("base64url").slice(0, 16);
    if (faces.size >= FACES_KEPT) faces.delete(faces.keys().next().value!);
    faces.set(playerId, face);
  }
  return face;
}

/**
 * The faces worked out lately, by player id: every push of a board, a strip or a table names its players'
 * faces again, and a hash each time was a visible part of a busy instance's pushes. The oldest go first.
 */
const faces = new Map<string, string>();
const FACES_KEPT = 20_000;

/** The face as a viewer is sent it: null for a player hidden from them. */
export const faceShown = (playerId: string, hidden: boolean): string | null => (hidden ? null : faceOf(playerId));
