import { describe, expect, it } from "vitest";
import {
  blockFloats,
  drawWithoutReplacement,
  fixedRng,
  floatStream,
  hmacBlock,
  seedCommitment,
  verifyCommitment,
} from "../src/fairness/stream";
import { bytesToHex } from "@noble/hashes/utils.js";

describe("provably-fair stream (game-rules B1–B3)", () => {
  const vector = { serverSeed: "def", clientSeed: "abc", nonce: 0 };

  it("reproduces the published HMAC test vector", () => {
    expect(bytesToHex(hmacBlock(vector, 0))).toBe("d5016f2ada664ea92ea97b65c637849a2fafa5da99ebc9c79bab3b6075cead35");
    expect(blockFloats(vector, 0)).toEqual([
      0.8320531346835196, 0.8531235849950463, 0.18227359023876488, 0.774284637067467, 0.18627392360940576, 0.6012540922965854,
      0.608081541955471, 0.46018488449044526,
    ]);
  });

  it("commits to a seed with its SHA-256", () => {
    expect(seedCommitment("def")).toBe("cb8379ac2098aa165029e3938a51da0bcecfc008fd6795f401178647f96c5b34");
    expect(verifyCommitment("def", seedCommitment("def"))).toBe(true);
    expect(verifyCommitment("deg", seedCommitment("def"))).toBe(false);
  });

  it("continues into the next HMAC round after eight floats, and resumes from a cursor", () => {
    const rng = floatStream(vector);
    const first = Array.from({ length: 8 }, () => rng.next());
    expect(first).toEqual(blockFloats(vector, 0));
    expect(rng.next()).toBe(blockFloats(vector, 1)[0]);
    const resumed = floatStream(vector, 9);
    expect(resumed.next()).toBe(blockFloats(vector, 1)[1]);
    expect(resumed.cursor).toBe(10);
  });

  it("changes every float when the nonce or the client seed changes", () => {
    expect(blockFloats({ ...vector, nonce: 1 }, 0)[0]).not.toBe(blockFloats(vector, 0)[0]);
    expect(blockFloats({ ...vector, clientSeed: "abd" }, 0)[0]).not.toBe(blockFloats(vector, 0)[0]);
  });

  it("picks and removes: never the same item twice", () => {
    const drawn = drawWithoutReplacement(fixedRng([0.99, 0.99, 0, 0.5]), [1, 2, 3, 4, 5], 4);
    expect(drawn).toEqual([5, 4, 1, 3]);
  });
});
