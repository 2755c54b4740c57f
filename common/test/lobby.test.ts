import { describe, expect, it } from "vitest";
import { gamesByCategory, mostPlayed } from "../src/lobby";
import { CARD_GAME_IDS, CATEGORIES, DICE_GAME_IDS, GAMES } from "../src/catalogue";

describe("the lobby's games", () => {
  it("lists every game of the catalogue once, in the spec's 6 categories, in catalogue order", () => {
    const groups = gamesByCategory();
    expect(groups.map((g) => g.category)).toEqual([...CATEGORIES]);
    for (const { category, games } of groups) {
      expect(games.length, `${category} has no game`).toBeGreaterThan(0);
      expect(games.map((x) => x.id)).toEqual(GAMES.filter((g) => g.category === category).map((g) => g.id));
    }
    const listed = groups.flatMap((g) => g.games.map((x) => x.id));
    expect([...listed].sort()).toEqual(GAMES.map((g) => g.id).sort());
    // the spec's games stay in their categories, in the spec's order (a game added later may join any)
    const spec = [
      ["blackjack", "poker", "baccarat", "three-card-poker", "video-poker"],
      ["crash", "coin-flip", "hi-lo", "dice", "limbo", "dot-battle"],
      ["craps", "sic-bo"],
      ["slots", "roulette"],
      ["keno", "mines"],
      ["dots"],
    ];
    expect(groups.map((g) => g.games.map((x) => x.id).filter((id) => spec.flat().includes(id)))).toEqual(spec);
  });

  it("knows the card and dice games the tags count, from the catalogue's entries", () => {
    expect(CARD_GAME_IDS).toEqual(["blackjack", "poker", "baccarat", "three-card-poker", "video-poker"]);
    // dice is a Quick Game, so the dice games are marked in their entries, not found by category
    expect(DICE_GAME_IDS).toEqual(["dice", "craps", "sic-bo"]);
  });

  it("Most Played: top 3 known games by play count, the first Popular", () => {
    const top = mostPlayed([
      { gameType: "dice", playCount: 4 },
      { gameType: "not-a-game", playCount: 99 },
      { gameType: "mines", playCount: 9 },
      { gameType: "keno", playCount: 4 },
      { gameType: "slots", playCount: 1 },
      { gameType: "roulette", playCount: 0 },
    ]);
    expect(top.map((t) => [t.game.id, t.playCount, t.popular])).toEqual([
      ["mines", 9, true],
      ["dice", 4, false],
      ["keno", 4, false],
    ]);
    expect(mostPlayed([])).toEqual([]);
    expect(mostPlayed([{ gameType: "crash", playCount: 2 }]).map((t) => t.game.id)).toEqual(["crash"]);
  });
});
