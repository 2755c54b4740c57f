import type { GameId } from "@casino/common/catalogue";
import type { GameTable } from "./contract";
import type { GameLobby } from "./shared/lobby-art";
import { lobby as blackjack } from "./blackjack/lobby";
import { lobby as poker } from "./poker/lobby";
import { lobby as baccarat } from "./baccarat/lobby";
import { lobby as threeCardPoker } from "./three-card-poker/lobby";
import { lobby as videoPoker } from "./video-poker/lobby";
import { lobby as crash } from "./crash/lobby";
import { lobby as coinFlip } from "./coin-flip/lobby";
import { lobby as hiLo } from "./hi-lo/lobby";
import { lobby as dice } from "./dice/lobby";
import { lobby as limbo } from "./limbo/lobby";
import { lobby as dotBattle } from "./dot-battle/lobby";
import { lobby as craps } from "./craps/lobby";
import { lobby as sicBo } from "./sic-bo/lobby";
import { lobby as slots } from "./slots/lobby";
import { lobby as roulette } from "./roulette/lobby";
import { lobby as keno } from "./keno/lobby";
import { lobby as mines } from "./mines/lobby";
import { lobby as dots } from "./dots/lobby";

/** What the client knows of a game: how it shows in the lobby, and its table, loaded lazily. */
export interface ClientGame {
  lobby: GameLobby;
  /** A game without a table shows the spec's under-development card. */
  table?: () => Promise<{ default: GameTable }>;
}

/** Every game of the catalogue, one line each. */
export const CLIENT_GAMES: Record<GameId, ClientGame> = {
  blackjack: { lobby: blackjack, table: () => import("./blackjack") },
  poker: { lobby: poker, table: () => import("./poker") },
  baccarat: { lobby: baccarat, table: () => import("./baccarat") },
  "three-card-poker": { lobby: threeCardPoker, table: () => import("./three-card-poker") },
  "video-poker": { lobby: videoPoker, table: () => import("./video-poker") },
  crash: { lobby: crash, table: () => import("./crash") },
  "coin-flip": { lobby: coinFlip, table: () => import("./coin-flip") },
  "hi-lo": { lobby: hiLo, table: () => import("./hi-lo") },
  dice: { lobby: dice, table: () => import("./dice") },
  limbo: { lobby: limbo, table: () => import("./limbo") },
  "dot-battle": { lobby: dotBattle, table: () => import("./dot-battle") },
  craps: { lobby: craps, table: () => import("./craps") },
  "sic-bo": { lobby: sicBo, table: () => import("./sic-bo") },
  slots: { lobby: slots, table: () => import("./slots") },
  roulette: { lobby: roulette, table: () => import("./roulette") },
  keno: { lobby: keno, table: () => import("./keno") },
  mines: { lobby: mines, table: () => import("./mines") },
  dots: { lobby: dots, table: () => import("./dots") },
};

/** The lazily loaded table of each game that has one. */
export const GAME_TABLES: Partial<Record<GameId, () => Promise<{ default: GameTable }>>> = Object.fromEntries(
  Object.entries(CLIENT_GAMES).flatMap(([id, game]) => (game.table ? [[id, game.table]] : [])),
);
