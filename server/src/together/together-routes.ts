import { Router } from "express";
import { raceRef, roundRef, type RaceView, type RoundVerifyAnswer } from "@casino/common";
import { sqlRows } from "../platform/db/sql";
import { notFound } from "../platform/errors";
import type { CoreServices } from "../core/services";
import { parse } from "../core/http/errors";
import { requireSession, sessionOf } from "../core/http/context";
import { raceById, raceStandings, raceViews } from "./race";

/**
 * A round named by its seed and nonce (as the live feeds and share links name it): the verifier's fields
 * once its server seed is revealed, `revealed: false` before. Nothing else of the round or its player:
 * no player id, and no open round (only finished rounds are in game_sessions).
 */
export function togetherRoutes(s: Pick<CoreServices, "db" | "clock">): Router {
  const router = Router();
  router.get("/rounds/:serverSeedHash/:nonce/verify", requireSession, async (req, res) => {
    const ref = parse(roundRef, { serverSeedHash: req.params.serverSeedHash, nonce: req.params.nonce });
    const rows = await s.db.run((em) =>
      sqlRows(
        em,
        `SELECT g.game_type, g.amount, g.bet_amount, g.params, g.actions, f.active, f.server_seed, f.client_seed
           FROM fairness_seeds f JOIN game_sessions g ON g.seed_id = f.id AND g.nonce = $2
          WHERE f.server_seed_hash = $1
          LIMIT 1`,
        [ref.serverSeedHash, ref.nonce],
      ),
    );
    const r = rows[0];
    if (!r) throw notFound("Round not found");
    const answer: RoundVerifyAnswer = r.active
      ? { revealed: false }
      : {
          revealed: true,
          game: r.game_type as string,
          serverSeed: r.server_seed as string,
          serverSeedHash: ref.serverSeedHash,
          clientSeed: r.client_seed as string,
          nonce: ref.nonce,
          amount: r.amount === null || r.amount === undefined ? Number(r.bet_amount) : Number(r.amount),
          params: r.params ?? {},
          actions: (r.actions as unknown[] | null) ?? [],
        };
    res.json(answer);
  });

  /**
   * A race's scoreboard, as a race's share link names it: the viewer's view of it (an anonymous member
   * unnamed, as in the room), its final order once finished. No player id.
   */
  router.get("/races/:raceId", requireSession, async (req, res) => {
    const { raceId } = parse(raceRef, { raceId: req.params.raceId });
    const race = await raceById(s.db, raceId);
    if (!race) throw notFound("Race not found");
    const viewer = sessionOf(req).playerId;
    const views = await raceViews(s.db, race, await raceStandings(s.db, race), [viewer], s.clock.now());
    res.json(views.get(viewer)! satisfies RaceView);
  });
  return router;
}
