import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { faceHash, faceOf } from "../../src/core/players/face";

/** The rule, written out here: a short hash of the player id. */
const expected = (id: string) => createHash("sha256").update(`face:${id}`).digest("base64url").slice(0, 16);

describe("faceOf", () => {
  it("gives every player their own face, the same before and after the faces kept have been replaced many times", () => {
    const ids = Array.from({ length: 50_000 }, () => randomUUID());
    const first = ids.slice(0, 100).map((id) => faceOf(id));
    for (const id of ids) expect(faceOf(id)).toBe(expected(id));
    // Asked again once the generations that held them are long gone, and once more while they are held.
    ids.slice(0, 100).forEach((id, i) => expect(faceOf(id)).toBe(first[i]));
    ids.slice(0, 100).forEach((id, i) => expect(faceOf(id)).toBe(first[i]));
    expect(new Set(first).size).toBe(100);
    expect(faceHash(ids[7]!)).toBe(expected(ids[7]!));
  });
});
