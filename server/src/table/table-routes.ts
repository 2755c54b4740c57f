import { Router, type Request, type Response } from "express";
import { matchMaker } from "@colyseus/core";
import { ROOMS, TABLE_SEATS_COUNT, shoeIdParam, tableListQuery, type TableListing } from "@casino/common";
import { conflict, notFound } from "../platform/errors";
import type { CoreServices } from "../core/services";
import { parse } from "../core/http/errors";
import { requireSession, sessionOf } from "../core/http/context";
import { activityScopeOf } from "../core/rooms/room-scope";
import type { TableMetadata } from "./table-state";
import type { TableStore } from "./table-store";

/**
 * The tables of a room type a player may join: the instance's, for a member of it, or the public ones
 * (`GET /tables` here, `GET /holdem-tables` in holdem-routes.ts).
 */
export function tableListing(s: Pick<CoreServices, "instances">, name: string, seats: number) {
  return async function list(req: Request, res: Response) {
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
}

/**
 * The shared blackjack tables: `GET /tables` lists the tables a player may join (the instance's, for a
 * member of it, or the public ones), `GET /tables/shoes/:id` (no session needed) a finished shoe's record
 * with its revealed seed, for `verifyShoe`, and what each of its rounds' settlement recorded.
 */
export function tableRoutes(s: Pick<CoreServices, "instances"> & { table: TableStore }): Router {
  const router = Router();
  router.get("/tables", requireSession, tableListing(s, ROOMS.table, TABLE_SEATS_COUNT));
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
  return router;
}
