import type { GameId } from "../catalogue";
import type { AnyGameEngine } from "./engine";
import { coinFlipEngine } from "./coin-flip";
import { diceEngine } from "./dice";
import { limboEngine } from "./limbo";
import { pokerEngine } from "./poker";
import { threeCardPokerEngine } from "./three-card-poker";
import { videoPokerEngine } from "./video-poker";
import { blackjackEngine } from "./blackjack";
import { baccaratEngine } from "./baccarat";
import { rouletteEngine } from "./roulette";
import { sicBoEngine } from "./sic-bo";
import { slotsEngine } from "./slots";
import { kenoEngine } from "./keno";
import { crapsEngine } from "./craps";
import { hiLoEngine } from "./hi-lo";
import { minesEngine } from "./mines";
import { crashEngine } from "./crash";

/** Every game playable through the casino room. Adding a game is adding its engine here. */
export const ENGINES: Partial<Record<GameId, AnyGameEngine>> = {
  dice: diceEngine,
  limbo: limboEngine,
  poker: pokerEngine,
  "three-card-poker": threeCardPokerEngine,
  "video-poker": videoPokerEngine,
  blackjack: blackjackEngine,
  baccarat: baccaratEngine,
  "coin-flip": coinFlipEngine,
  roulette: rouletteEngine,
  "sic-bo": sicBoEngine,
  slots: slotsEngine,
  keno: kenoEngine,
  craps: crapsEngine,
  "hi-lo": hiLoEngine,
  mines: minesEngine,
  crash: crashEngine,
};

export const engineFor = (game: string): AnyGameEngine | undefined =>
  Object.prototype.hasOwnProperty.call(ENGINES, game) ? ENGINES[game as GameId] : undefined;
