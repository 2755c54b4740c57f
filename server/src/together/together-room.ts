import { randomUUID } from "node:crypto";
import { CloseCode, ErrorCode, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import {
  ACCOUNT_CLOSED_CLOSE_CODE,
  FEED_FLUSH_MS,
  FEED_MAX_QUEUED_ROWS,
  FEED_MAX_ROWS_PER_PUSH,
  RACE_SHOWN_MS,
  TOGETHER_MESSAGES,
  TOGETHER_PUSH,
  TONIGHT_FULL_READ_MS,
  TONIGHT_PUSH_MS,
  WATCH_PUSH_MS,
  describeZodError,
  togetherAtMessage,
  togetherJoinOptions,
  togetherRaceJoinMessage,
  togetherRaceStartMessage,
  togetherReactMessage,
  togetherWatchMessage,
  type FeedEntry,
  type FeedPush,
  type FeedRow,
  type MembersPush,
  type RacePush,
  type ReactionPush,
  type ReactionTarget,
  type SharedTablePlace,
  type TablePush,
  type TogetherMember,
  type TonightBoardPush,
  type WatchedRound,
} from "@casino/common";
import type { SessionClaims } from "../core/auth/session";
import type { ClockTimer } from "../platform/clock";
import { AppError, forbidden } from "../platform/errors";
import { Coalescer } from "../leaderboard/coalescer";
import { loadProfiles, type Profile } from "../leaderboard/profiles";
import type { CoreServices } from "../core/services";
import {
  MEMBER_REFRESH_MS,
  boardChannel,
  feedChannel,
  membersChannel,
  raceChannel,
  tableChannel,
  type TableStep,
  type Together,
} from "./together";
import { RaceRefusal, closeJoinWindow, joinRace, raceStandings, raceViews, shownRace, startRace, type RaceRecord } from "./race";
import { endRace } from "./race-sweep";
import { TonightTally, boardViews, recordTonightJoins } from "./tonight";

interface TogetherAuth extends SessionClaims {
  instanceId: string | null;
}
interface Viewer {
  playerId: string;
  game: string | null;
  sharedTable: SharedTablePlace | null;
  holdemTable: SharedTablePlace | null;
  /** The member whose table this client watches: player id (server side only) and Discord id. */
  watching: string | null;
  watchingDiscordId: string | null;
  /** The Discord id the client last asked to watch, and whether a look-up of it runs (one at a time). */
  wantWatch: string | null;
  resolving: boolean;
  /** When the last `at` was applied, and the one waiting for its turn (at most 4 a second are applied). */
  lastAt: number;
  pendingAt: ReturnType<typeof setTimeout> | null;
  /** The members list last sent to this client, as JSON: a push that would send it again is left out. */
  shownMembers: string;
}
type TogetherClient = Client<{ auth: TogetherAuth; userData: Viewer }>;

const AT_MIN_INTERVAL_MS = 250;
/** The instance feed's latest row ids the room remembers: a reaction may name one of them. */
const FEED_ROWS_REMEMBERED = 200;
/** Members pushes are coalesced to at most this many a second. */
const MEMBERS_PER_SECOND = 4;

/** The services the room uses. */
export type TogetherRoomServices = Pick<
  CoreServices,
  "clock" | "config" | "db" | "events" | "instances" | "lifecycle" | "log" | "presence" | "roomLimits" | "tokens"
> & { together: Together };

/**
 * The together room type of one app: onAuth checks the session and, for an instance, that the player
 * joined it (the same rule as the instance's crash room and boards). Guests and standalone visits join
 * the one room without an instance and hear the global big wins only.
 */
export function togetherRoom(services: TogetherRoomServices) {
  return class AppTogetherRoom extends TogetherRoom {
    protected override readonly services = services;

    static override async onAuth(token: string, options: unknown, _context: AuthContext): Promise<TogetherAuth> {
      try {
        const claims = await services.tokens.verify(token);
        const parsed = togetherJoinOptions.safeParse(options ?? {});
        if (!parsed.success) throw new AppError("invalid_options", 400, describeZodError(parsed.error));
        const instanceId = parsed.data.instanceId;
        if (instanceId !== null) {
          if (claims.guest) throw forbidden("Guests have no activity instance; launch the casino in Discord");
          if (!(await services.instances.admits(claims.playerId, instanceId)))
            throw forbidden("You have not joined that activity instance");
        }
        return { ...claims, instanceId };
      } catch (error) {
        if (error instanceof AppError) throw new ServerError(ErrorCode.AUTH_FAILED, error.message);
        throw error;
      }
    }
  };
}

/**
 * One room per activity instance (and one for everyone outside Discord): the instance's members with
 * the table each sits at, the instance's settled rounds as they settle, and the global big wins. Rows
 * arrive on presence channels from whichever process settled the round; the room folds them into one
 * push at most every FEED_FLUSH_MS, at most FEED_MAX_ROWS_PER_PUSH entries of each feed. Entries beyond
 * that wait, in order, for the next pushes: none is dropped. At most FEED_MAX_QUEUED_ROWS wait per feed;
 * rows arriving beyond that are counted into one folded entry behind them (see `queue`).
 */
export abstract class TogetherRoom extends Room<{ client: TogetherClient }> {
  protected abstract readonly services: TogetherRoomServices;
  private instanceId: string | null = null;
  /** Entries not pushed yet, oldest first. */
  private readonly instanceRows: FeedEntry[] = [];
  private readonly globalRows: FeedEntry[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private membersPush!: Coalescer;
  /** The tonight board: brought up to date and pushed after a member's settled round or a join, at most every TONIGHT_PUSH_MS. */
  private boardPush!: Coalescer;
  /** The board's figures as the room keeps them (see TonightTally), and its members' profiles as last read. */
  private tally: TonightTally | null = null;
  private profiles = new Map<string, Profile>();
  /**
   * `boardNews`: a round, a join or a profile asked for the next push, which is sent whatever it holds.
   * Otherwise (the periodic full read) the board is pushed only if it differs from `lastBoards`, the
   * boards last pushed as JSON ("" after a push that did not keep them).
   */
  private lastBoards = "";
  private boardNews = false;
  private fullReadTimer: ReturnType<typeof setInterval> | null = null;
  /** The UTC day the connected members were last recorded for (a new day records them again). */
  private joinsDay: string | null = null;
  private refreshTimer: ReturnType<typeof setInterval> | null = null;

  /** The ids of the instance feed's latest rows (insertion order: the oldest goes first). */
  private readonly recentRowIds = new Set<string>();
  private readonly onInstanceRow = (row: FeedRow) => {
    // A member's round settled (its record is committed before its row is published): the board changed,
    // and the race's order while it runs.
    this.boardNews = true;
    this.boardPush.trigger();
    if (this.race && this.race.finishedAt === null) this.racePush.trigger();
    this.recentRowIds.add(row.id);
    if (this.recentRowIds.size > FEED_ROWS_REMEMBERED) this.recentRowIds.delete(this.recentRowIds.values().next().value!);
    this.queue(this.instanceRows, row);
  };
  private readonly onGlobalRow = (row: FeedRow) => this.queue(this.globalRows, row);
  private stopBigWins: (() => void) | null = null;
  private readonly onMembersChanged = () => this.membersPush.trigger();
  /** A member's name or anonymity changed: the board and the profiles are read again in full. */
  private readonly onBoardChanged = () => {
    this.tally?.invalidate();
    this.boardNews = true;
    this.boardPush.trigger();
  };
  /** The instance's race as last read (null: none to show), its push and the timers of its next step. */
  private race: RaceRecord | null = null;
  private racePush!: Coalescer;
  private raceTimer: ClockTimer | undefined;
  private raceLoads = 0;
  private readonly onRaceChanged = () => void this.loadRace();
  private readonly onTableStep = (step: TableStep) => this.queueTable(step);
  /** The latest step of each watched player not pushed yet, and the timer that pushes them. */
  private pendingTables = new Map<string, WatchedRound>();
  private tableTimer: ReturnType<typeof setTimeout> | null = null;

  override async onCreate(options: unknown): Promise<void> {
    this.instanceId = togetherJoinOptions.parse(options ?? {}).instanceId;
    this.autoDispose = true;
    this.maxMessagesPerSecond = this.services.config.roomMaxMessagesPerSecond;
    this.membersPush = new Coalescer(() => this.pushMembers(), 1000 / MEMBERS_PER_SECOND, this.services.log);
    this.boardPush = new Coalescer(() => this.pushBoard(), TONIGHT_PUSH_MS, this.services.log);
    this.racePush = new Coalescer(() => this.pushRace(), TONIGHT_PUSH_MS, this.services.log);
    const presence = this.services.presence;
    this.stopBigWins = await this.services.together.listenBigWins(this.onGlobalRow);
    if (this.instanceId) {
      await presence.subscribe(feedChannel(this.instanceId), this.onInstanceRow);
      await presence.subscribe(membersChannel(this.instanceId), this.onMembersChanged);
      await presence.subscribe(tableChannel(this.instanceId), this.onTableStep);
      await presence.subscribe(boardChannel(this.instanceId), this.onBoardChanged);
      await presence.subscribe(raceChannel(this.instanceId), this.onRaceChanged);
      await this.loadRace();
      this.refreshTimer = setInterval(() => void this.refreshEntries(), MEMBER_REFRESH_MS);
      this.tally = new TonightTally(this.services.db, this.instanceId);
      // The safety net of the board's incremental reads: a full read now and then (pushed if it changed).
      this.fullReadTimer = setInterval(() => {
        this.tally?.invalidate();
        this.boardPush.trigger();
      }, TONIGHT_FULL_READ_MS);
    }
    this.onMessage(TOGETHER_MESSAGES.at, (client: TogetherClient, raw: unknown) => this.onAt(client, raw));
    this.onMessage(TOGETHER_MESSAGES.watch, (client: TogetherClient, raw: unknown) => this.onWatch(client, raw));
    this.onMessage(TOGETHER_MESSAGES.react, (client: TogetherClient, raw: unknown) => void this.onReact(client, raw));
    this.onMessage(TOGETHER_MESSAGES.raceStart, (client: TogetherClient, raw: unknown) => void this.onRaceStart(client, raw));
    this.onMessage(TOGETHER_MESSAGES.raceJoin, (client: TogetherClient, raw: unknown) => void this.onRaceJoin(client, raw));
  }

  override async onJoin(client: TogetherClient): Promise<void> {
    client.userData = {
      playerId: client.auth!.playerId,
      game: null,
      sharedTable: null,
      holdemTable: null,
      watching: null,
      watchingDiscordId: null,
      wantWatch: null,
      resolving: false,
      lastAt: 0,
      pendingAt: null,
      shownMembers: "",
    };
    if (!this.instanceId) return;
    const together = this.services.together;
    await together.enter(this.instanceId, client.auth!.playerId);
    // The board starts at the member's first join of the day (kept in the database, so a reconnection
    // or a restart changes nothing); everyone gets the board with the new member, this client too.
    await recordTonightJoins(this.services.db, this.instanceId, [client.auth!.playerId]).catch((error) => {
      // Not on the board yet: the next push records every connected member again.
      this.joinsDay = null;
      this.services.log.error("together:tonight", "join not recorded", error);
    });
    this.boardNews = true;
    this.boardPush.trigger();
    this.racePush.trigger();
    // The change above reaches the instance's other rooms; this client gets its list now.
    const members = await together.members(this.instanceId, client.auth!.playerId);
    this.sendMembers(client, members);
  }

  /** What was sent while the socket was gone may be lost: the next members push goes to this client whatever it holds. */
  override onReconnect(client: TogetherClient): void {
    if (client.userData) client.userData.shownMembers = "";
    this.membersPush.trigger();
  }

  override async onDrop(client: TogetherClient, code?: number): Promise<void> {
    if (code === CloseCode.WITH_ERROR || code === ACCOUNT_CLOSED_CLOSE_CODE) return;
    // A phone drops its socket without a close: the player stays listed for a while (no flicker).
    await this.allowReconnection(client, 30);
  }

  override async onLeave(client: TogetherClient): Promise<void> {
    const viewer = client.userData;
    if (viewer?.pendingAt) clearTimeout(viewer.pendingAt);
    if (!this.instanceId || !viewer) return;
    // Another connection of the same player (a second tab) keeps the entry.
    if (this.clients.some((c) => c !== client && c.userData?.playerId === viewer.playerId)) return;
    await this.services.together
      .leave(this.instanceId, viewer.playerId)
      .catch((error) => this.services.log.error("together:leave", "leave not recorded", error));
  }

  override onDispose(): void {
    this.membersPush.dispose();
    this.boardPush.dispose();
    this.racePush.dispose();
    this.services.clock.clearTimeout(this.raceTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.tableTimer) clearTimeout(this.tableTimer);
    if (this.refreshTimer) clearInterval(this.refreshTimer);
    if (this.fullReadTimer) clearInterval(this.fullReadTimer);
    const presence = this.services.presence;
    this.stopBigWins?.();
    if (this.instanceId) {
      void Promise.resolve(presence.unsubscribe(feedChannel(this.instanceId), this.onInstanceRow)).catch(() => undefined);
      void Promise.resolve(presence.unsubscribe(membersChannel(this.instanceId), this.onMembersChanged)).catch(() => undefined);
      void Promise.resolve(presence.unsubscribe(tableChannel(this.instanceId), this.onTableStep)).catch(() => undefined);
      void Promise.resolve(presence.unsubscribe(boardChannel(this.instanceId), this.onBoardChanged)).catch(() => undefined);
      void Promise.resolve(presence.unsubscribe(raceChannel(this.instanceId), this.onRaceChanged)).catch(() => undefined);
    }
  }

  private onAt(client: TogetherClient, raw: unknown): void {
    const parsed = togetherAtMessage.safeParse(raw);
    if (!parsed.success) {
      client.send(TOGETHER_PUSH.error, { code: "invalid_message", message: describeZodError(parsed.error) });
      return;
    }
    client.userData!.game = parsed.data.game;
    client.userData!.sharedTable = parsed.data.sharedTable;
    client.userData!.holdemTable = parsed.data.holdemTable;
    this.record(client.userData!);
  }

  /** Writes what the client does now (table, member watched): at most 4 a second per client, the latest winning. */
  private record(viewer: Viewer): void {
    if (!this.instanceId || viewer.pendingAt) return;
    const wait = viewer.lastAt + AT_MIN_INTERVAL_MS - Date.now();
    const apply = () => {
      viewer.pendingAt = null;
      viewer.lastAt = Date.now();
      void this.services.together
        .at(this.instanceId!, viewer.playerId, {
          game: viewer.game,
          watching: viewer.watching,
          sharedTable: viewer.sharedTable,
          holdemTable: viewer.holdemTable,
        })
        .catch((error) => this.services.log.error("together:at", "table not recorded", error));
    };
    if (wait <= 0) apply();
    else viewer.pendingAt = setTimeout(apply, wait);
  }

  /**
   * `watch`: the client watches the table of a member of this room's instance (or stops). The member is
   * looked up among the instance's members on the server: a player of another instance cannot join this
   * room (onAuth), and a Discord id that is not a member here, the client itself or a player in anonymous
   * mode is refused. One look-up at a time per client, the latest request winning.
   */
  private onWatch(client: TogetherClient, raw: unknown): void {
    const parsed = togetherWatchMessage.safeParse(raw);
    if (!parsed.success) {
      client.send(TOGETHER_PUSH.error, { code: "invalid_message", message: describeZodError(parsed.error) });
      return;
    }
    if (!this.instanceId) {
      client.send(TOGETHER_PUSH.error, { code: "not_watchable", message: "Watching a table needs an activity instance" });
      return;
    }
    const viewer = client.userData!;
    viewer.wantWatch = parsed.data.discordId;
    if (!viewer.resolving) void this.resolveWatch(client);
  }

  private async resolveWatch(client: TogetherClient): Promise<void> {
    const viewer = client.userData!;
    viewer.resolving = true;
    try {
      while (viewer.wantWatch !== viewer.watchingDiscordId) {
        const discordId = viewer.wantWatch;
        if (discordId === null) {
          viewer.watching = null;
          viewer.watchingDiscordId = null;
          this.record(viewer);
          continue;
        }
        const target = await this.services.together.memberByDiscordId(this.instanceId!, discordId);
        const refusal = !target
          ? "That player is not in this activity"
          : target.playerId === viewer.playerId
            ? "That is your own table"
            : target.anonymous
              ? "That player plays anonymously"
              : null;
        if (refusal || !target) {
          client.send(TOGETHER_PUSH.error, { code: "not_watchable", message: refusal });
          if (viewer.wantWatch === discordId) viewer.wantWatch = viewer.watchingDiscordId;
          continue;
        }
        const round = await this.services.together.openTable(target.playerId);
        if (viewer.wantWatch !== discordId) continue;
        viewer.watching = target.playerId;
        viewer.watchingDiscordId = discordId;
        this.record(viewer);
        client.send(TOGETHER_PUSH.table, { discordId, round } satisfies TablePush);
      }
    } catch (error) {
      this.services.log.error("together:watch", "watch not resolved", error);
      client.send(TOGETHER_PUSH.error, { code: "unavailable", message: "Watching is not available right now" });
      viewer.wantWatch = viewer.watchingDiscordId;
    } finally {
      viewer.resolving = false;
    }
  }

  /**
   * `react`: one of the fixed reactions on something the instance's members see, sent to every client
   * of the room (the sender's too). Refused, changing nothing: a malformed message (`invalid_message`),
   * outside an instance, a target not here (`reaction_refused`), and past the sender's budget or the
   * instance's (`rate_limited`, checked in that order, so a refused sender spends none of the instance's).
   */
  private async onReact(client: TogetherClient, raw: unknown): Promise<void> {
    const parsed = togetherReactMessage.safeParse(raw);
    if (!parsed.success) {
      client.send(TOGETHER_PUSH.error, { code: "invalid_message", message: describeZodError(parsed.error) });
      return;
    }
    const refuse = (code: string, message: string) => client.send(TOGETHER_PUSH.error, { code, message });
    if (!this.instanceId) return refuse("reaction_refused", "Reactions need an activity instance");
    const { reaction, target } = parsed.data;
    const playerId = client.userData!.playerId;
    try {
      const refusal = await this.targetRefusal(target, playerId);
      if (refusal) return refuse("reaction_refused", refusal);
      const own = await this.services.roomLimits.take("reaction", playerId);
      if (!own.allowed) return refuse("rate_limited", own.message);
      const instance = await this.services.roomLimits.take("instanceReactions", this.instanceId);
      if (!instance.allowed) return refuse("rate_limited", instance.message);
      const sender = await this.services.together.reactionSender(playerId);
      const id = randomUUID();
      for (const each of this.clients) {
        if (!each.userData) continue;
        const self = each.userData.playerId === playerId;
        each.send(TOGETHER_PUSH.reaction, { id, reaction, target, ...sender, self } satisfies ReactionPush);
      }
    } catch (error) {
      this.services.log.error("together:react", "reaction not sent", error);
      refuse("reaction_refused", "Reactions are not available right now");
    }
  }

  /**
   * Why a reaction cannot go on `target` here, or null: a seat must be taken (as the members report their
   * places), a watched table another visible member's, a feed row this instance's.
   */
  private async targetRefusal(target: ReactionTarget, playerId: string): Promise<string | null> {
    if (target.kind === "feed") return this.recentRowIds.has(target.rowId) ? null : "That round is not in this activity's feed";
    if (target.kind === "seat")
      return (await this.services.together.seatTaken(this.instanceId!, target.seat)) ? null : "Nobody sits at that seat";
    if (target.kind !== "table") return null;
    const member = await this.services.together.memberByDiscordId(this.instanceId!, target.discordId);
    if (!member) return "That player is not in this activity";
    if (member.playerId === playerId) return "That is your own table";
    return member.anonymous ? "That player plays anonymously" : null;
  }

  /** A step of a member's round: kept (the latest per player) for the next table push, if anyone here watches. */
  private queueTable(step: TableStep): void {
    if (!this.clients.some((c) => c.userData?.watching === step.playerId)) return;
    this.pendingTables.set(step.playerId, step.round);
    this.tableTimer ??= setTimeout(() => this.flushTables(), WATCH_PUSH_MS);
  }

  private flushTables(): void {
    this.tableTimer = null;
    const pending = this.pendingTables;
    this.pendingTables = new Map();
    for (const client of this.clients) {
      const viewer = client.userData;
      const round = viewer?.watching ? pending.get(viewer.watching) : undefined;
      if (round && viewer?.watchingDiscordId) {
        client.send(TOGETHER_PUSH.table, { discordId: viewer.watchingDiscordId, round } satisfies TablePush);
      }
    }
  }

  /**
   * Queues a row for the next push. While FEED_MAX_QUEUED_ROWS entries of the feed wait (a flood faster
   * than the pushes drain it), the row is counted into a folded entry at the end of the queue instead
   * (a new one if the last entry is a row): the queue holds at most FEED_MAX_QUEUED_ROWS + 1 entries,
   * the order of what was settled is kept, and every round is counted once.
   */
  private queue(rows: FeedEntry[], row: FeedRow): void {
    const last = rows[rows.length - 1];
    if (rows.length < FEED_MAX_QUEUED_ROWS) rows.push(row);
    else if (last?.kind === "folded") last.rounds += 1;
    else rows.push({ kind: "folded", id: `folded:${randomUUID()}`, rounds: 1, at: row.at });
    this.flushTimer ??= setTimeout(() => this.flush(), FEED_FLUSH_MS);
  }

  /**
   * Pushes the oldest FEED_MAX_ROWS_PER_PUSH entries of each feed; what is left (a burst: every bet of a
   * busy crash round at its bust) goes in the next push, FEED_FLUSH_MS later, and so on until none is left.
   */
  private flush(): void {
    this.flushTimer = null;
    const push: FeedPush = {
      instance: this.instanceRows.splice(0, FEED_MAX_ROWS_PER_PUSH),
      global: this.globalRows.splice(0, FEED_MAX_ROWS_PER_PUSH),
    };
    if (this.instanceRows.length > 0 || this.globalRows.length > 0) this.flushTimer = setTimeout(() => this.flush(), FEED_FLUSH_MS);
    if (push.instance.length === 0 && push.global.length === 0) return;
    this.broadcast(TOGETHER_PUSH.feed, push);
  }

  /**
   * `race-start {minutes}`: a race of this instance, the sender in it. Refused (`race_refused`) outside an
   * instance and while another race of the instance is not finished (the database's unique index decides,
   * whichever process is asked). Every room of the instance hears of it on the race channel.
   */
  private async onRaceStart(client: TogetherClient, raw: unknown): Promise<void> {
    const parsed = togetherRaceStartMessage.safeParse(raw);
    if (!parsed.success) {
      client.send(TOGETHER_PUSH.error, { code: "invalid_message", message: describeZodError(parsed.error) });
      return;
    }
    await this.raceStep(client, () =>
      startRace(
        this.services.db,
        this.services.clock,
        this.services.config.race,
        this.instanceId!,
        client.userData!.playerId,
        parsed.data.minutes,
      ),
    );
  }

  /** `race-join {}`: the sender joins the instance's race while its join window is open. */
  private async onRaceJoin(client: TogetherClient, raw: unknown): Promise<void> {
    const parsed = togetherRaceJoinMessage.safeParse(raw ?? {});
    if (!parsed.success) {
      client.send(TOGETHER_PUSH.error, { code: "invalid_message", message: describeZodError(parsed.error) });
      return;
    }
    await this.raceStep(client, () => joinRace(this.services.db, this.services.clock, this.instanceId!, client.userData!.playerId));
  }

  private async raceStep(client: TogetherClient, step: () => Promise<unknown>): Promise<void> {
    const refuse = (message: string) => client.send(TOGETHER_PUSH.error, { code: "race_refused", message });
    if (!this.instanceId) return refuse("Races need an activity instance: launch the casino in a Discord call");
    try {
      await step();
      await this.announceRace();
    } catch (error) {
      if (error instanceof RaceRefusal) return refuse(error.message);
      this.services.log.error("together:race", "race step failed", error);
      refuse("Races are not available right now");
    }
  }

  /** Tells every room of the instance (this one too, through the channel) that its race changed. */
  private async announceRace(): Promise<void> {
    await Promise.resolve(this.services.presence.publish(raceChannel(this.instanceId!), 1));
  }

  /**
   * Reads the instance's race again, schedules its next step on the server's clock and pushes it. The
   * latest of overlapping reads wins. A step whose time has passed (a process started again after it)
   * is taken at once.
   */
  private async loadRace(): Promise<void> {
    if (!this.instanceId) return;
    const load = ++this.raceLoads;
    const clock = this.services.clock;
    try {
      const race = await shownRace(this.services.db, this.instanceId, clock.now() - RACE_SHOWN_MS);
      if (load !== this.raceLoads) return;
      this.race = race;
      clock.clearTimeout(this.raceTimer);
      this.raceTimer = undefined;
      if (race && race.finishedAt === null) {
        const at = race.counting ? race.endsAt : race.joinClosesAt;
        this.raceTimer = clock.setTimeout(() => void this.raceDue(race), Math.max(0, at - clock.now()));
      }
      this.racePush.trigger();
    } catch (error) {
      this.services.log.error("together:race", "race not read", error);
    }
  }

  /** The race's next step is due: its join window closes, or it ends. Whichever process is first takes it. */
  private async raceDue(race: RaceRecord): Promise<void> {
    try {
      if (race.counting) {
        // endRace tells of it (the winner's notice, the race channel); finished already (by another
        // process's room or a race sweep), it was told then.
        await endRace(this.services, race.id, race.instanceId);
        return;
      }
      await closeJoinWindow(this.services.db, race.id);
      await this.announceRace();
    } catch (error) {
      this.services.log.error("together:race", "race step not taken", error);
      // Tried again shortly: the step is a conditional write, safe to repeat.
      const clock = this.services.clock;
      clock.clearTimeout(this.raceTimer);
      this.raceTimer = clock.setTimeout(() => void this.loadRace(), 1000);
    }
  }

  /** Pushes the instance's race to each client as its player sees it (its live order while it runs). */
  private async pushRace(): Promise<void> {
    if (!this.instanceId) return;
    const viewers = [...new Set(this.clients.filter((c) => c.userData).map((c) => c.userData!.playerId))];
    if (viewers.length === 0) return;
    const race = this.race;
    const views = race
      ? await raceViews(this.services.db, race, await raceStandings(this.services.db, race), viewers, this.services.clock.now())
      : null;
    for (const client of this.clients) {
      if (!client.userData) continue;
      const view = views?.get(client.userData.playerId) ?? null;
      client.send(TOGETHER_PUSH.race, { instanceId: this.instanceId, race: view } satisfies RacePush);
    }
  }

  private async pushMembers(): Promise<void> {
    if (!this.instanceId) return;
    const viewers = this.clients.filter((c) => c.userData).map((c) => c.userData!.playerId);
    if (viewers.length === 0) return;
    const lists = await this.services.together.membersFor(this.instanceId, [...new Set(viewers)]);
    for (const client of this.clients) {
      const members = client.userData && lists.get(client.userData.playerId);
      if (members) this.sendMembers(client, members);
    }
  }

  /** Sends the client its members list unless it is the one the client has (a push that changed nothing it shows). */
  private sendMembers(client: TogetherClient, members: TogetherMember[]): void {
    const shown = JSON.stringify(members);
    if (!client.userData || shown === client.userData.shownMembers) return;
    client.userData.shownMembers = shown;
    client.send(TOGETHER_PUSH.members, { instanceId: this.instanceId!, members } satisfies MembersPush);
  }

  /**
   * Brings the instance's tonight board up to date (TonightTally: the rounds settled since the last read,
   * or a full read) and pushes it: one board for every client (anonymous members hidden), and its own
   * board to a member in anonymous mode (see `boardViews`). On a new UTC day the members still connected are recorded for it first (their board starts
   * again from then). The members' profiles are read again with each full read, and for a member new to
   * the room. A push of the periodic full read is left out when the board did not change.
   */
  private async pushBoard(): Promise<void> {
    if (!this.instanceId || !this.tally) return;
    const news = this.boardNews;
    this.boardNews = false;
    const viewers = [...new Set(this.clients.filter((c) => c.userData).map((c) => c.userData!.playerId))];
    if (viewers.length === 0) return;
    const day = new Date().toISOString().slice(0, 10);
    if (day !== this.joinsDay) {
      await recordTonightJoins(this.services.db, this.instanceId, viewers);
      this.joinsDay = day;
    }
    const board = await this.tally.read();
    const ids = board.members.map((m) => m.playerId);
    if (board.full || ids.some((id) => !this.profiles.has(id))) this.profiles = await loadProfiles(this.services.db, ids);
    const { shared, own } = boardViews(board.members, this.profiles, viewers);
    if (!news) {
      const shown = JSON.stringify([board.day, shared, [...own]]);
      if (shown === this.lastBoards) return;
      this.lastBoards = shown;
    } else this.lastBoards = "";
    // The shared board is encoded once and the same bytes go to every client but the few with a board of their own.
    const ownClients = this.clients.filter((c) => c.userData && own.has(c.userData.playerId));
    this.broadcast(TOGETHER_PUSH.board, { instanceId: this.instanceId, day: board.day, rows: shared } satisfies TonightBoardPush, {
      except: ownClients,
    });
    for (const client of ownClients) {
      const rows = own.get(client.userData!.playerId)!;
      client.send(TOGETHER_PUSH.board, { instanceId: this.instanceId, day: board.day, rows } satisfies TonightBoardPush);
    }
  }

  private async refreshEntries(): Promise<void> {
    const entries = new Map(
      this.clients
        .filter((c) => c.userData)
        .map((c) => [
          c.userData!.playerId,
          {
            game: c.userData!.game,
            watching: c.userData!.watching,
            sharedTable: c.userData!.sharedTable,
            holdemTable: c.userData!.holdemTable,
          },
        ]),
    );
    await this.services.together
      .refresh(this.instanceId!, entries)
      .catch((error) => this.services.log.error("together:refresh", "presence not refreshed", error));
  }
}
