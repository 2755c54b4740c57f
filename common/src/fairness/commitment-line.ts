/** A commitment checked against the server seed hash a player was shown (null: none was given). */
export interface CheckedCommitment {
  expected: string | null;
  matches: boolean | null;
}

/**
 * The verifier's line on a commitment: matched, not matched (with the hash given), or not checked.
 * `shownBefore` says when the hash was shown ("the hand"); `unchecked` why it was not checked.
 */
export function commitmentLine(c: CheckedCommitment, shownBefore: string, unchecked: string): string {
  if (c.matches === null) return `commitment: not checked (${unchecked})`;
  return c.matches
    ? `commitment: matches the hash shown before ${shownBefore}`
    : `commitment: DOES NOT MATCH the hash given (${c.expected})`;
}
