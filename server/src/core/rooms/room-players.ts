import type { Client, Presence, Room } from "@colyseus/core";
import { ANONYMOUS_NAME, SHARED_ROOM_PUSH, type SharedRoomSelf } from "@casino/common";
import { AppError } from "../../platform/errors";
import { faceOf } from "../players/face";
import type { CoreServices } from "../services";

/**
 * The presence channel on which every process hears that a player's shown profile changed (name,
 * picture, anonymous mode): the shared rooms holding the player show the change (app.ts publishes it).
 */
export const PROFILE_CHANGES = "player-profile-changes";

/** A player as a shared room shows them to everyone (a crash bet, a seat). */
export interface RoomProfile {
  /** The player's id, or for an anonymous player a stand-in drawn for this room (StandIns). */
  playerId: string;
  /** `ANONYMOUS_NAME` for an anonymous player. */
  username: string;
  avatarUrl: string | null;
  /** The generated face's seed, null for an anonymous player. */
  face: string | null;
  anonymous: boolean;
}

type Services = Pick<CoreServices, "players" | "standIns" | "log">;

/**
 * The listeners of each presence (one per process) to `PROFILE_CHANGES`, behind one subscription: a
 * process holds many shared rooms (a hundred tables), and a subscription each would put as many
 * listeners on one event of the in-process presence, more than Node allows without a warning.
 */
const profileListeners = new WeakMap<Presence, Set<(playerId: string) => void>>();

/** Hands `listener` every profile change heard by `presence` until the returned function is called. */
function listenProfileChanges(presence: Presence, listener: (playerId: string) => void, s: Pick<Services, "log">): () => void {
  let listeners = profileListeners.get(presence);
  if (!listeners) {
    const all = new Set<(playerId: string) => void>();
    listeners = all;
    profileListeners.set(presence, all);
    void Promise.resolve(
      presence.subscribe(PROFILE_CHANGES, (playerId: string) => {
        for (const each of all) each(playerId);
      }),
    ).catch((error: unknown) => {
      // The next room to listen subscribes again.
      if (profileListeners.get(presence) === all) profileListeners.delete(presence);
      s.log.error("room:profiles", "profile changes not subscribed", error);
    });
  }
  listeners.add(listener);
  const kept = listeners;
  return () => void kept.delete(listener);
}

/**
 * The players of one shared room (the crash room, the blackjack table, the Hold'em table) as it shows
 * them. An anonymous player's bet or seat carries a stand-in instead of the player's id: the id is shown
 * with the player's name on their named rows elsewhere, so it would tie the anonymous bet or seat to
 * them. The stand-in's place is the room (its name and id) and the UTC day when it is drawn; it is
 * drawn when the player joins and kept while they stay anonymous and the room keeps them (below), so it
 * does not move under the client at midnight. Each of the player's connections is told, privately, the
 * id its own entries carry (`SHARED_ROOM_PUSH.self`), on joining and whenever it changes.
 *
 * A profile change (`PROFILE_CHANGES`, from any process) is read again for a player the room holds, and
 * the room is told (`changed`) so that it shows the bet or seat anew.
 *
 * The room keeps the profiles of its players only: those with a connection here (joined and not gone for
 * good; a dropped one waiting to come back counts), and those gone whose bet, seat or hand the room still
 * shows (`shows`). A player's profile is dropped when their last connection leaves (`left`) and the room
 * shows nothing of theirs, or later, when the room shows nothing of theirs any more (`forgetGone`, which the
 * room calls whenever it shows its state anew). A crash room lives as long as its process: without this,
 * it would keep the profile of every player who ever came in.
 */
export class RoomPlayers {
  private readonly profiles = new Map<string, RoomProfile>();
  /** The player of each connection here (joined, not left for good), by the connection's id. */
  private readonly playerOfConnection = new Map<string, string>();
  /** How many connections each player has here. */
  private readonly connections = new Map<string, number>();
  /** Players kept with no connection here, while the room shows their bet, seat or hand. */
  private readonly gone = new Set<string>();
  private readonly stopListening: () => void;

  constructor(
    private readonly room: Room,
    private readonly s: Services,
    private readonly playerOf: (client: Client) => string,
    private readonly changed: (playerId: string) => void,
    /** Whether the room still shows something of the player's: a bet, a seat, a hand (a past one too). */
    private readonly shows: (playerId: string) => boolean,
  ) {
    this.stopListening = listenProfileChanges(room.presence, (playerId) => void this.refresh(playerId), s);
  }

  /** A connection joined: the player is read (refused when gone) and the connection told its own id. */
  async joined(client: Client): Promise<void> {
    const player = await this.s.players.get(this.playerOf(client));
    this.update(player, client);
    if (!this.playerOfConnection.has(client.sessionId)) {
      this.playerOfConnection.set(client.sessionId, player.id);
      this.connections.set(player.id, (this.connections.get(player.id) ?? 0) + 1);
    }
    this.gone.delete(player.id);
    this.tell(client, this.profiles.get(player.id)!.playerId);
  }

  /**
   * A connection left for good (not a drop the room waits on). The player's profile goes with their last
   * connection, unless the room still shows something of theirs (then `forgetGone` drops it later).
   */
  left(client: Pick<Client, "sessionId">): void {
    const playerId = this.playerOfConnection.get(client.sessionId);
    if (playerId === undefined) return;
    this.playerOfConnection.delete(client.sessionId);
    const left = (this.connections.get(playerId) ?? 1) - 1;
    if (left > 0) {
      this.connections.set(playerId, left);
      return;
    }
    this.connections.delete(playerId);
    this.gone.add(playerId);
    this.forgetGone();
  }

  /** Drops the profiles of the players gone from the room whose bet, seat or hand it no longer shows. */
  forgetGone(): void {
    for (const playerId of this.gone) {
      if (this.connections.has(playerId) || this.shows(playerId)) continue;
      this.gone.delete(playerId);
      this.profiles.delete(playerId);
    }
  }

  /** How many players' profiles the room keeps. */
  get size(): number {
    return this.profiles.size;
  }

  /**
   * How the room shows the player of `client`, a connection here (a dropped one waiting to come back
   * counts). A request the connection sent before it left for good, run after (requests wait their turn),
   * is refused: the room may have forgotten the player, and would otherwise show them by their id.
   */
  of(client: Pick<Client, "sessionId">): RoomProfile {
    const playerId = this.playerOfConnection.get(client.sessionId);
    const profile = playerId === undefined ? undefined : this.profiles.get(playerId);
    if (!profile) throw new AppError("left_room", 409, "This connection has left the room");
    return profile;
  }

  /**
   * How the room shows `playerId`. A player the room has not read (a bet recovered after a restart) is
   * shown as recorded: by the recorded name, or as anonymous when they were then.
   */
  shown(playerId: string, recorded: { username: string; anonymous: boolean }): RoomProfile {
    const known = this.profiles.get(playerId);
    if (known) return known;
    const player = { id: playerId, username: recorded.username, avatarUrl: null, anonymousMode: recorded.anonymous };
    const profile = this.profileOf(player, undefined);
    // Drawn once: the stand-in of a new UTC day would move it. Kept while the room shows their bet or seat.
    if (recorded.anonymous) {
      this.profiles.set(playerId, profile);
      this.gone.add(playerId);
    }
    return profile;
  }

  dispose(): void {
    this.stopListening();
  }

  private async refresh(playerId: string): Promise<void> {
    if (!this.profiles.has(playerId)) return;
    try {
      const player = await this.s.players.get(playerId);
      // Forgotten while being read: the player is gone from the room.
      if (!this.profiles.has(playerId)) return;
      if (this.update(player)) this.changed(playerId);
    } catch {
      // The player is gone (erased, archived): the room shows them as it last did.
    }
  }

  /**
   * Sets the player's profile; true when what the room shows of them changed. Their connections (but
   * `joining`, told by `joined`) are told a new id.
   */
  private update(player: { id: string; username: string; avatarUrl: string | null; anonymousMode: boolean }, joining?: Client): boolean {
    const before = this.profiles.get(player.id);
    const next = this.profileOf(player, before);
    if (before && JSON.stringify(before) === JSON.stringify(next)) return false;
    this.profiles.set(player.id, next);
    if (before?.playerId !== next.playerId)
      for (const client of this.room.clients)
        if (client !== joining && this.playerOf(client) === player.id) this.tell(client, next.playerId);
    return true;
  }

  private profileOf(
    player: { id: string; username: string; avatarUrl: string | null; anonymousMode: boolean },
    before: RoomProfile | undefined,
  ): RoomProfile {
    if (!player.anonymousMode)
      return { playerId: player.id, username: player.username, avatarUrl: player.avatarUrl, face: faceOf(player.id), anonymous: false };
    // Still anonymous: the stand-in drawn before stays (a new UTC day does not move it under the client).
    const playerId = before?.anonymous ? before.playerId : this.s.standIns.of(["room", this.room.roomName, this.room.roomId], player.id);
    return { playerId, username: ANONYMOUS_NAME, avatarUrl: null, face: null, anonymous: true };
  }

  private tell(client: Client, playerId: string): void {
    client.send(SHARED_ROOM_PUSH.self, { playerId } satisfies SharedRoomSelf);
  }
}
