import type { Presence } from "@colyseus/core";
import type { Log } from "../../platform/log";

/**
 * What every connection of one player, on any process, hears. A balance or fairness event updates the
 * state of the player's casino rooms (the room that answered the request already set its own from the
 * answer, and skips the event it published: `from`); only a notice is sent to the client as a message.
 */
export type PlayerEvent =
  | { type: "balance"; balance: number; delta: number; reason: string; from?: string }
  | { type: "notice"; title: string; description: string }
  | { type: "fairness"; serverSeedHash: string; clientSeed: string; nonce: number; nextServerSeedHash: string; from?: string }
  /** The player entered or left an activity instance: what a process cached about it is out of date (not sent to clients). */
  | { type: "together" };

export const playerChannel = (playerId: string) => `player:${playerId}`;

/** Presence pub/sub: local in one process, Redis when scaled out, so two tabs on two servers both hear it. */
export class PlayerEvents {
  constructor(
    private readonly presence: Presence,
    private readonly log: Log,
  ) {}

  /** Fire and forget: the answer to the request carries the same news, so a lost event is logged, not fatal. */
  publish(playerId: string, event: PlayerEvent): void {
    Promise.resolve()
      .then(() => this.presence.publish(playerChannel(playerId), event))
      .catch((error) => this.log.error("events:publish", "player event not published", error));
  }

  subscribe(playerId: string, listener: (event: PlayerEvent) => void): () => void {
    const channel = playerChannel(playerId);
    Promise.resolve()
      .then(() => this.presence.subscribe(channel, listener))
      .catch((error) => this.log.error("events:subscribe", "player events not subscribed", error));
    return () =>
      void Promise.resolve()
        .then(() => this.presence.unsubscribe(channel, listener))
        .catch(() => undefined);
  }
}
