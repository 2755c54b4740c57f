import type { EntityManager } from "typeorm";
import { Player } from "../../platform/db/entities/index";
import { insertFirstSeeds, newClientSeed } from "../seeds";
import { openAccount, type MoneyRequests, type NewPlayer } from "../ledger/engine/index";

/** A new player, their 1000-coin starting grant and their seeds (active pair and committed next seed), together. */
export function createPlayer(requests: MoneyRequests, fields: NewPlayer): Promise<Player> {
  return requests.transaction(async (em: EntityManager, announce) => {
    const playerId = await openAccount(em, fields);
    await insertFirstSeeds(em, playerId, newClientSeed());
    const player = await em.getRepository(Player).findOneByOrFail({ id: playerId });
    announce({ type: "balance", playerId, balance: player.balance, delta: player.balance, reason: "grant", from: null });
    return player;
  });
}
