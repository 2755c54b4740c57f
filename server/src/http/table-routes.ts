import { Router } from "express";
import { matchMaker } from "@colyseus/core";
import { ROOMS, TABLE_SEATS_COUNT, shoeIdParam, tableListQuery, type TableListing } from "@casino/common";
import { notFound } from "../errors";
import type { Services } from "../services";
import { parse } from "./errors";
import { requireSession, sessionOf } from "./context";
import { activityScopeOf } from "../rooms/crash-scope";
import type { TableMetadata } from "../rooms/table-room";

/**
 * The shared blackjack tables: `GET /tables` lists the tables a player may join (the instance's, for a
 * member of it, or the public ones), `GET /tables/shoes/:id` a finished shoe's record with its revealed
 * seed, for `verifyShoe`.
 */
export function tableRoutes(s: Services): Router {
  const router = Router();
  router.get("/tables", requireSession, async (req, res) => {
    const query = parse(tableListQuery, req.query);
    const instanceId = query.instanceId ?? null;
    // The instance rule of the rooms: another instance's table is not even listed.
    await activityScopeOf(s.instances, sessionOf(req), instanceId, "Guests play at the public tables");
    const rooms = await matchMaker.query({ name: ROOMS.table });
    const tables: TableListing[] = rooms
      .map((room) => ({ room, meta: room.metadata as Partial<TableMetadata> | undefined }))
      .filter(({ meta }) => meta?.tableId && (meta.instanceId ?? null) === instanceId)
      .map(({ room, meta }) => ({
        roomId: room.roomId,
        tableId: meta!.tableId!,
        instanceId,
        seated: meta!.seated ?? 0,
        freeSeats: TABLE_SEATS_COUNT - (meta!.seated ?? 0),
        watchers: meta!.watchers ?? 0,
      }));
    res.json({ tables });
  });
  router.get("/tables/shoes/:id", requireSession, async (req, res) => {
    const { id } = parse(shoeIdParam, { id: req.params.id });
    const shoe = await s.table.revealed(id);
    if (!shoe) throw notFound("No finished shoe with that id");
    res.json(shoe);
  });
  return router;
}
