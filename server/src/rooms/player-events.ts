import type { Presence } from "@colyseus/core";

/** What the server pushes to every connection of one player, on any process. */
export type PlayerEvent =
  | { type: "balance"; balance: number; delta: number; reason: string }
  | { type: "notice"; title: string; description: string }
  | { type: "fairness"; serverSeedHash: string; clientSeed: string; nonce: number; nextServerSeedHash: string };

export const playerChannel = (playerId: string) => `player:${playerId}`;

/** Presence pub/sub: local in one process, Redis when scaled out, so two tabs on two servers both hear it. */
export class PlayerEvents {
  constructor(private readonly presence: Presence) {}

  publish(playerId: string, event: PlayerEvent): void {
    void this.presence.publish(playerChannel(playerId), event);
  }

  subscribe(playerId: string, listener: (event: PlayerEvent) => void): () => void {
    const channel = playerChannel(playerId);
    void this.presence.subscribe(channel, listener);
    return () => void this.presence.unsubscribe(channel, listener);
  }
}
