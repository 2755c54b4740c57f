import type { GameId } from "@casino/common/catalogue";
import type { GameTable } from "./contract";

/**
 * The lazily loaded table of each game that has one. A game without an entry shows the spec's
 * under-development card.
 */
export const GAME_TABLES: Partial<Record<GameId, () => Promise<{ default: GameTable }>>> = {
  blackjack: () => import("./blackjack"),
  poker: () => import("./poker"),
  baccarat: () => import("./baccarat"),
  "three-card-poker": () => import("./three-card-poker"),
  "video-poker": () => import("./video-poker"),
  crash: () => import("./crash"),
  "coin-flip": () => import("./coin-flip"),
  "hi-lo": () => import("./hi-lo"),
  dice: () => import("./dice"),
  limbo: () => import("./limbo"),
  craps: () => import("./craps"),
  "sic-bo": () => import("./sic-bo"),
  slots: () => import("./slots"),
  roulette: () => import("./roulette"),
  keno: () => import("./keno"),
  mines: () => import("./mines"),
  "dot-battle": () => import("./dot-battle"),
  dots: () => import("./dots"),
};
