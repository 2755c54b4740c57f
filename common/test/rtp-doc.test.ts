import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { betName, rtpDoc } from "../src/rtp/doc";
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

  it("names every bet in words, in sentence case, never by its code's identifier", () => {
    expect(betName("six line")).toBe("Six line");
    const bets = written.split("\n").flatMap((line) => /^\| [a-z-]+ \| ([^|]+) \|/.exec(line)?.[1]?.trim() ?? []);
    expect(bets).toContain("Six line");
    expect(bets).toContain("First four");
    // no camelCase identifier ("sixLine", "dontPass"), every name starting with a capital or a figure
    expect(bets.filter((bet) => bet !== "bet" && (/[a-z][A-Z]/.test(bet) || !/^[A-Z0-9—]/.test(bet)))).toEqual([]);
    // the computed labels are words too (the help dialogs show them)
    const labels = computed.flatMap(([, rows]) => rows.map((r) => r.bet));
    expect(labels.filter((bet) => /[a-z][A-Z]/.test(bet))).toEqual([]);
  });
});
