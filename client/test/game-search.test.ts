import { describe, expect, it } from "vitest";
import { searchGames } from "../src/features/lobby/game-search";

const ids = (query: string) => searchGames(query).map((g) => g.id);

describe("the lobby's game search", () => {
  it("finds a game by its title, spelled loosely", () => {
    expect(ids("blackjack")[0]).toBe("blackjack");
    expect(ids("blakjack")[0]).toBe("blackjack");
    expect(ids("rolette")[0]).toBe("roulette");
    expect(ids("MINES")[0]).toBe("mines");
  });

  it("finds games by the names players use for them", () => {
    expect(ids("holdem")[0]).toBe("poker");
    expect(ids("hold em")[0]).toBe("poker");
    expect(ids("poker").sort()).toEqual(["poker", "three-card-poker", "video-poker"]);
    expect(ids("21")[0]).toBe("blackjack");
    expect(ids("skill").sort()).toEqual(["dot-battle", "dots"]);
    expect(ids("free").sort()).toEqual(["dot-battle", "dots"]);
  });

  it("finds games by what they are played with, and needs every word", () => {
    expect(ids("roll")).toContain("dice");
    expect(ids("roll")).not.toContain("blackjack");
    expect(ids("dice").sort()).toEqual(["craps", "dice", "sic-bo"]);
    expect(ids("dice pass")).toEqual(["craps"]);
  });

  it("finds nothing for words no game has", () => {
    expect(ids("no such game")).toEqual([]);
    expect(ids("zzzz")).toEqual([]);
    expect(ids("   ")).toEqual([]);
  });
});
