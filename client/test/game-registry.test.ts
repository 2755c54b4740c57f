import { describe, expect, it } from "vitest";
import { GAMES } from "@casino/common/catalogue";
import { CLIENT_GAMES, GAME_TABLES } from "../src/games/registry";

/** The client finds a game by its folder; a game of the catalogue without one would have no tile art. */
describe("the client's games, found by their folders", () => {
  it("gives every game of the catalogue its lobby art", () => {
    for (const { id } of GAMES) {
      expect(CLIENT_GAMES[id].lobby, id).toBeDefined();
      expect(CLIENT_GAMES[id].lobby.icon, id).toBeDefined();
      expect(CLIENT_GAMES[id].lobby.art, id).toBeDefined();
    }
  });

  it("loads a table for every game, each from its own folder", async () => {
    expect(Object.keys(GAME_TABLES).sort()).toEqual(GAMES.map((g) => g.id).sort());
    const dice = await GAME_TABLES.dice!();
    expect(dice.default).toBeDefined();
  });
});
