import { createHash } from "node:crypto";

/**
 * The seed of a player's generated face (the client draws it with boring-avatars): the one rule, used by
 * every shape that shows a member with an avatar (the boards, the strip, Tonight, a race, the crash
 * room's bets, the tables' seats). It is the player's, not their name's: two players of one name get two
 * faces, and a rename keeps the face. It is a short hash of the player id, not the id, and a hidden
 * (anonymous) player is sent no seed at all (null): the face tells nothing of who they are.
 */
export function faceOf(playerId: string): string {
  let face = recent.get(playerId);
  if (face !== undefined) return face;
  face = older.get(playerId);
  if (face === undefined) face = faceHash(playerId);
  if (recent.size >= FACES_KEPT / 2) {
    older = recent;
    recent = new Map();
  }
  recent.set(playerId, face);
  return face;
}

/** The face, worked out (a hash; `faceOf` keeps the ones worked out lately). */
export const faceHash = (playerId: string): string => createHash("sha256").update(`face:${playerId}`).digest("base64url").slice(0, 16);

/**
 * The faces worked out lately, by player id, in two generations: every push of a board, a strip or a
 * table names its players' faces again, and a hash each time was a visible part of a busy instance's
 * pushes. A face found is kept in the recent half; when it is full it becomes the older one and the older is dropped: at most
 * FACES_KEPT kept. (Deleting the oldest entry of one Map at each miss cost more than the hash: a Map
 * keeps deleted entries as holes until it is rehashed, and the next oldest is found by stepping over
 * them all.)
 */
let recent = new Map<string, string>();
let older = new Map<string, string>();
const FACES_KEPT = 20_000;

/** The face as a viewer is sent it: null for a player hidden from them. */
export const faceShown = (playerId: string, hidden: boolean): string | null => (hidden ? null : faceOf(playerId));
