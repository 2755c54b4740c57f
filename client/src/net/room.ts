import { Client, type Room } from "@colyseus/sdk";
import { ROOMS } from "@casino/common";

/** An absolute ws(s):// URL from the page's own origin: one origin serves client, REST and WebSocket. */
export const socketUrl = () => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;

export function joinCasino(token: string): Promise<Room> {
  const client = new Client(socketUrl());
  client.auth.token = token;
  return client.create(ROOMS.casino);
}
