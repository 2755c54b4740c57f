import type { GameId } from "../catalogue";
import type { AnyGameEngine } from "./engine";
import { coinFlipEngine } from "./coin-flip";
import { diceEngine } from "./dice";
import { limboEngine } from "./limbo";

/** Every game playable through the casino room. Adding a game is adding its engine here. */
export const ENGINES: Partial<Record<GameId, AnyGameEngine>> = {
  dice: diceEngine,
  limbo: limboEngine,
  "coin-flip": coinFlipEngine,
};

export const engineFor = (game: string): AnyGameEngine | undefined =>
  Object.prototype.hasOwnProperty.call(ENGINES, game) ? ENGINES[game as GameId] : undefined;
