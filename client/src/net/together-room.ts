import type { Client, Room } from "@colyseus/sdk";
import { TOGETHER_MESSAGES, TOGETHER_ROOM, type RaceMinutes, type SharedTablePlace } from "@casino/common/together";
import type { ReactionName, ReactionTarget } from "@casino/common/reactions";
import { RoomConnection, type ConnectionListener } from "./room";

/**
 * The together room (common/together.ts): the instance's members and feed, and the global big wins, on
 * one connection per client. `instanceId` null outside an instance (guests): big wins only.
 */
export class TogetherConnection extends RoomConnection<null> {
  constructor(
    token: string,
    private readonly instanceId: string | null,
    listener: ConnectionListener<null>,
  ) {
    super(token, listener);
  }

  /**
   * The table the player sits at now (null: the lobby) and their place at the instance's shared
   * blackjack table, or at its Hold'em table (which is not a game: told with no game).
   */
  at(game: string | null, sharedTable: SharedTablePlace | null, holdemTable: SharedTablePlace | null = null): void {
    const atHoldem = holdemTable !== null;
    this.send(TOGETHER_MESSAGES.at, {
      game: atHoldem ? null : game,
      sharedTable: !atHoldem && game === "blackjack" ? sharedTable : null,
      holdemTable,
    });
  }

  /** Watches the table of the instance's member with this Discord id (null: stops watching). */
  watch(discordId: string | null): void {
    this.send(TOGETHER_MESSAGES.watch, { discordId });
  }

  /** Sends a reaction on something the instance's members see; the room sends it to all of them. */
  react(reaction: ReactionName, target: ReactionTarget): void {
    this.send(TOGETHER_MESSAGES.react, { reaction, target });
  }

  /** Starts a race of the instance (refused by the server while one is on). */
  raceStart(minutes: RaceMinutes): void {
    this.send(TOGETHER_MESSAGES.raceStart, { minutes });
  }

  /** Joins the instance's race while its join window is open. */
  raceJoin(): void {
    this.send(TOGETHER_MESSAGES.raceJoin, {});
  }

  protected join(client: Client): Promise<Room> {
    return client.joinOrCreate(TOGETHER_ROOM, { instanceId: this.instanceId });
  }

  protected read(): null {
    return null;
  }
}
