import { Router, type Request, type Response } from "express";
import { matchMaker } from "@colyseus/core";
import { ROOMS, TABLE_SEATS_COUNT, shoeIdParam, tableListQuery, type TableListing } from "@casino/common";
import { conflict, notFound } from "../errors";
import type { Services } from "../services";
import { parse } from "./errors";
import { requireSession, sessionOf } from "./context";
import { activityScopeOf } from "../rooms/crash-scope";
import type { TableMetadata } from "../rooms/table-room";
import { HOLDEM_TABLE_SEATS, holdemHandIdParam } from "@casino/common/holdem-table";

/**
 * The shared tables: `GET /tables` (blackjack) and `GET /holdem-tables` list the tables a player may join
 * (the instance's, for a member of it, or the public ones), `GET /tables/shoes/:id` (no session needed) a finished shoe's record
 * with its revealed seed, for `verifyShoe`, and what each of its rounds' settlement recorded;
 * `GET /holdem-hands/:id` (no session needed) a finished Hold'em hand's record, for `dealHoldemHand`.
 */
export function tableRoutes(s: Services): Router {
  const router = Router();
  /** The tables of a room type a player may join: the instance's, for a member of it, or the public ones. */
  const listing = (name: string, seats: number) =>
    async function list(req: Request, res: Response) {
      const query = parse(tableListQuery, req.query);
      const instanceId = query.instanceId ?? null;
      // The instance rule of the rooms: another instance's table is not even listed.
      await activityScopeOf(s.instances, sessionOf(req), instanceId, "Guests play at the public tables");
      const rooms = await matchMaker.query({ name });
      const tables: TableListing[] = rooms
        .map((room) => ({ room, meta: room.metadata as Partial<TableMetadata> | undefined }))
        .filter(({ meta }) => meta?.tableId && (meta.instanceId ?? null) === instanceId)
        .map(({ room, meta }) => ({
          roomId: room.roomId,
          tableId: meta!.tableId!,
          instanceId,
          seated: meta!.seated ?? 0,
          freeSeats: seats - (meta!.seated ?? 0),
          watchers: meta!.watchers ?? 0,
        }));
      res.json({ tables });
    };
  router.get("/tables", requireSession, listing(ROOMS.table, TABLE_SEATS_COUNT));
  router.get("/holdem-tables", requireSession, listing(ROOMS.holdem, HOLDEM_TABLE_SEATS));
  // Public, like the verifier page that reads it: a finished shoe's seed is revealed to everyone.
  router.get("/tables/shoes/:id", async (req, res) => {
    const { id } = parse(shoeIdParam, { id: req.params.id });
    const shoe = await s.table.revealed(id);
    if (shoe === "unknown") throw notFound("No shoe has this id: check it against the table's fairness panel", "shoe_not_found");
    if (shoe === "dealing")
      throw conflict(
        "This shoe is still being dealt: its server seed stays secret until the shoe reaches its cut card (or its table closes)",
        "shoe_not_revealed",
      );
    res.json(shoe);
  });
  // Public too: a finished hand's seed is revealed at the table to everyone watching it.
  router.get("/holdem-hands/:id", async (req, res) => {
    const { id } = parse(holdemHandIdParam, { id: req.params.id });
    const hand = await s.holdem.revealedHand(id);
    if (hand === "unknown") throw notFound("No hand has this id: check it against your history", "hand_not_found");
    if (hand === "playing")
      throw conflict("This hand is still being played: its server seed stays secret until it is over", "hand_not_revealed");
    if (hand === "void") throw conflict("This hand was never finished (its table closed during it): every bet went back", "hand_void");
    res.json(hand);
  });
  return router;
}
