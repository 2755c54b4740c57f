import type { BoardEntry } from "@casino/common";
import type { StoredProfile } from "./profiles";
import type { StandIns } from "../core/players/stand-ins";
import type { BoardSpec } from "./types";

/** Where a board entry's stand-in is drawn from (StandIns): the board, its window and its scope. */
export const boardPlace = (spec: BoardSpec): string[] => [spec.board, spec.window, spec.scope, spec.scopeId ?? ""];

/**
 * How a board row is shown: the one renderer of an entry, for the REST page (pasted into the page's
 * JSON text), for scoped pages and for the leaderboard room's snapshots and deltas (parsed). It works
 * on the stored profile's ready-made JSON members, so the cheap page path pastes text and every other
 * path reads the very same text.
 *
 * An anonymous player is "Anonymous" to everyone but themselves: no name, avatar, badge or tag, no
 * `discordId` key at all, and in place of their id an opaque stand-in (see StandIns) that ties the
 * entry to nothing shown elsewhere. A kills entry shows no tag.
 */
export class EntryRenderer {
  /** SPECIAL_BADGES: Discord id → the badge as JSON. */
  private readonly badgeJsons: ReadonlyMap<string, string>;

  constructor(
    badges: ReadonlyMap<string, string>,
    private readonly standIns: StandIns,
  ) {
    this.badgeJsons = new Map([...badges].map(([id, badge]) => [id, JSON.stringify(badge)]));
  }

  /**
   * One entry as JSON text. `value` is the board's value (balance, net, time or kills); `balance` is
   * the player's current balance, shown beside the net on the day and week boards.
   */
  json(
    spec: BoardSpec,
    rank: number,
    playerId: string,
    profile: StoredProfile,
    value: number,
    balance: number,
    viewerId: string | null,
  ): string {
    const masked = profile.anonymous && playerId !== viewerId;
    const who = masked
      ? `"playerId":"${this.standIns.of(boardPlace(spec), playerId)}","username":"Anonymous","avatarUrl":null,"anonymousMode":true,"face":null,"badge":null`
      : `${profile.membersJson},"face":"${profile.face}","badge":${this.badgeJsons.get(profile.discordId) ?? "null"}`;
    const tag = masked ? "null" : profile.tagJson;
    let shown: string;
    if (spec.board === "speed") shown = `"activeTag":${tag},"completionTimeMs":${value}`;
    else if (spec.board === "kills") shown = `"kills":${value}`;
    else if (spec.window === "all") shown = `"activeTag":${tag},"balance":${value}`;
    else shown = `"activeTag":${tag},"balance":${balance},"net":${value}`;
    return `{"rank":${rank},${who},${shown}}`;
  }

  /** The same entry as an object (for messages that are not sent as text). */
  entry(
    spec: BoardSpec,
    rank: number,
    playerId: string,
    profile: StoredProfile,
    value: number,
    balance: number,
    viewerId: string | null,
  ): BoardEntry {
    return JSON.parse(this.json(spec, rank, playerId, profile, value, balance, viewerId)) as BoardEntry;
  }
}
