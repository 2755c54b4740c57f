import { Router } from "express";
import { ROOMS } from "@casino/common";
import { HOLDEM_TABLE_SEATS, holdemHandIdParam } from "@casino/common/holdem-table";
import { conflict, notFound } from "../platform/errors";
import type { CoreServices } from "../core/services";
import { parse } from "../core/http/errors";
import { requireSession } from "../core/http/context";
import { tableListing } from "../table/table-routes";
import type { HoldemStore } from "./holdem-store";

/**
 * The Hold'em tables: `GET /holdem-tables` lists the tables a player may join (the instance's, for a
 * member of it, or the public ones), `GET /holdem-hands/:id` (no session needed) a finished hand's record,
 * for `dealHoldemHand`, its seats' players named by stand-ins.
 */
export function holdemRoutes(s: Pick<CoreServices, "instances" | "standIns"> & { holdem: HoldemStore }): Router {
  const router = Router();
  router.get("/holdem-tables", requireSession, tableListing(s, ROOMS.holdem, HOLDEM_TABLE_SEATS));
  // Public: a finished hand's seed is revealed at the table to everyone watching it.
  router.get("/holdem-hands/:id", async (req, res) => {
    const { id } = parse(holdemHandIdParam, { id: req.params.id });
    const hand = await s.holdem.revealedHand(id);
    if (hand === "unknown") throw notFound("No hand has this id: check it against your history", "hand_not_found");
    if (hand === "playing")
      throw conflict("This hand is still being played: its server seed stays secret until it is over", "hand_not_revealed");
    if (hand === "void") throw conflict("This hand was never finished (its table closed during it): every bet went back", "hand_void");
    // Anyone may read a record, and the table shows whose hand it was only by seat (an anonymous player's
    // seat under a stand-in): the record names each seat's player by a stand-in of the hand, never the id.
    const seats = hand.start.seats.map((seat) => ({ ...seat, playerId: s.standIns.of(["holdem-hand", hand.handId], seat.playerId) }));
    res.json({ ...hand, start: { ...hand.start, seats } });
  });
  return router;
}
