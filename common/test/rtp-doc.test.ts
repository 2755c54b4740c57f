import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { rtpDoc } from "../src/rtp/doc";
import { exactRtp } from "./exact-rtp";
import { GAMES } from "../src/catalogue";

const STALE = "docs/rtp.md differs from what the engines give: run `npm run docs:games`";
const docPath = fileURLToPath(new URL("../../docs/rtp.md", import.meta.url));

describe("docs/rtp.md, the RTP table for readers", () => {
  const computed = exactRtp();
  const written = readFileSync(docPath, "utf8");

  it("is exactly what the exact computation of every engine gives", () => {
    expect(written, STALE).toBe(rtpDoc(computed));
  });

  it("has a line for every chance game of the catalogue", () => {
    const gamesInTable = new Set(written.split("\n").flatMap((line) => /^\| ([a-z-]+) \|/.exec(line)?.[1] ?? []));
    gamesInTable.delete("game");
    const chance = GAMES.filter((g) => g.kind === "chance").map((g) => g.id);
    expect([...gamesInTable].sort()).toEqual([...chance].sort());
  });
});
