import type { Presence } from "@colyseus/core";
import type { Redis } from "ioredis";
import {
  ANONYMOUS_NAME,
  HOLDEM_GAME,
  isBigWin,
  type FeedRow,
  type SharedTablePlace,
  type TogetherMember,
  type WatchedRound,
} from "@casino/common";
import { roundMultiplier } from "@casino/common/games/odds";
import type { Database } from "../platform/db/database";
import { openRoundOf } from "../core/players/open-rounds";
import { loadProfiles } from "../leaderboard/profiles";
import { faceOf } from "../core/players/face";
import type { Log } from "../platform/log";
import type { PlayerEvents } from "../core/events/player-events";

/** Channels (presence pub/sub: local in one process, Redis across processes). */
export const FEED_GLOBAL_CHANNEL = "together:feed:global";
export const feedChannel = (instanceId: string) => `together:feed:${instanceId}`;
export const membersChannel = (instanceId: string) => `together:members:${instanceId}`;
/** A member's name or anonymity changed: the instance's board is read again. */
export const boardChannel = (instanceId: string) => `together:board:${instanceId}`;
/** The instance's race changed (started, joined, its join window closed, finished): every room reads it again. */
export const raceChannel = (instanceId: string) => `together:race:${instanceId}`;
/** Every round step of the instance's players (for their watchers): `TableStep`. */
export const tableChannel = (instanceId: string) => `together:table:${instanceId}`;

/** Redis keys. */
const membersKey = (instanceId: string) => `together:members:${instanceId}`;
const whereKey = (playerId: string) => `together:at:${playerId}`;
const bestKey = (day: string) => `together:best:${day}`;

/** A member entry not refreshed for this long belongs to a process that died: it is left out and swept. */
export const MEMBER_STALE_MS = 3 * 60_000;
/** Rooms refresh their members' entries this often. */
export const MEMBER_REFRESH_MS = 60_000;
const KEY_TTL_SECONDS = 24 * 3600;
/** How long a process trusts what it read of a player (instance, name, anonymity) for the feed. */
const PLAYER_CACHE_MS = 30_000;

/**
 * The best net win of the day: raised only, never lowered (one round at a time may race another).
 * Answers 1 when it was raised, 0 when it stayed as it was.
 */
const RAISE_BEST = `local c = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local raised = 0
if tonumber(ARGV[2]) > c then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]); raised = 1 end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return raised`;

interface MemberEntry {
  game: string | null;
  seen: number;
  /** The player id of the member whose table this one watches. */
  watching?: string | null;
  /** The place at the instance's shared blackjack table. */
  sharedTable?: SharedTablePlace | null;
  /** The place at the instance's Hold'em table. */
  holdemTable?: SharedTablePlace | null;
}

/**
 * What a member does now: the table, the member watched (player ids never leave the server) and the
 * place at the instance's shared blackjack table.
 */
export interface MemberDoing {
  game: string | null;
  watching: string | null;
  sharedTable: SharedTablePlace | null;
  holdemTable: SharedTablePlace | null;
}

/** A round step on the table channel: whose, and the round as their own screen has it. */
export interface TableStep {
  playerId: string;
  round: WatchedRound;
}

/** An instance member a watcher may name, resolved on the server. */
export interface WatchTarget {
  playerId: string;
  anonymous: boolean;
}

interface FeedIdentity {
  instanceId: string | null;
  discordId: string;
  username: string;
  avatarUrl: string | null;
  anonymous: boolean;
  expires: number;
}

/** A settled round, as the casino room has it from the ledger's answer, with the bet's parameters. */
export interface SettledRound {
  game: string;
  totalStake: number;
  totalPayout: number;
  /** the engine's final view of the round: the outcome its history row records */
  view: unknown;
  params: unknown;
  fairness: { serverSeedHash: string; nonce: number };
}

/** A row's source other than a solo table: what kind, its id, and what names it (see FeedRow). */
export interface FeedSource {
  game: string;
  totalStake: number;
  totalPayout: number;
  /** the bet's own multiplier, as the round's history row tells it (see FeedRow) */
  multiplier: number | null;
  kind: FeedRow["kind"];
  id: string;
  serverSeedHash: string | null;
  nonce: number | null;
}

/** A round step as the casino room has it from the ledger's answer (what the player's screen gets). */
export interface RoundStep {
  game: string;
  totalStake: number;
  totalPayout: number;
  done: boolean;
  result: "win" | "lose" | "push" | null;
  view: unknown;
  params: unknown;
}

/**
 * The bet's own multiplier of a settled round, from what its history row records (the bet's parameters,
 * the engine's final view, the whole coins paid): the one function "My bets" uses, so the feed and the
 * watch view never tell a second figure, and never paid ÷ stake.
 */
const betMultiplier = (round: { game: string; params: unknown; view: unknown; totalPayout: number }): number | null =>
  roundMultiplier({ game: round.game, params: round.params, outcome: round.view, payout: round.totalPayout });

const today = (now = Date.now()) => new Date(now).toISOString().slice(0, 10);

/**
 * Who is in which activity instance (and at which table), and the feeds of settled rounds. Presence is
 * a Redis hash per instance (player id -> game and last refresh), so every process sees the same
 * members; changes and feed rows travel on presence channels. Publishing a round costs, for a player in
 * no instance and without a big win, nothing but a cached lookup.
 */
export class Together {
  private readonly identities = new Map<string, FeedIdentity>();
  private stopped = false;
  /** The rooms of this process that hear the big wins of every instance, behind one presence subscription. */
  private readonly bigWinListeners = new Set<(row: FeedRow) => void>();
  private bigWinSubscription: Promise<void> | null = null;
  /**
   * A lower bound of each player's best win of the day as this process last knew it (the day's best is
   * only ever raised): a win not above it cannot raise the best, so it runs no script.
   */
  private readonly knownBest = new Map<string, { day: string; net: number }>();

  constructor(
    private readonly db: Database,
    private readonly redis: Redis,
    private readonly presence: Presence,
    private readonly events: PlayerEvents,
    private readonly log: Log,
  ) {}

  /**
   * The process is closing: nothing more is written or published (its connections' Redis clients go
   * next). The entries of its members go stale and are swept as after a crash.
   */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Hands `listener` every big win of any instance until the returned function is called. The process
   * subscribes to the global channel once, at the first listener, and stays subscribed: a room per
   * instance each subscribing would mean as many subscriptions (and, on the in-process presence, more
   * listeners on one event than Node allows without a warning) for the same rows.
   */
  async listenBigWins(listener: (row: FeedRow) => void): Promise<() => void> {
    this.bigWinListeners.add(listener);
    this.bigWinSubscription ??= Promise.resolve(
      this.presence.subscribe(FEED_GLOBAL_CHANNEL, (row: FeedRow) => {
        for (const each of this.bigWinListeners) each(row);
      }),
    ).then(
      () => undefined,
      (error: unknown) => {
        this.bigWinSubscription = null;
        throw error;
      },
    );
    try {
      await this.bigWinSubscription;
    } catch (error) {
      this.bigWinListeners.delete(listener);
      throw error;
    }
    return () => this.bigWinListeners.delete(listener);
  }

  /** The player entered the instance (a together room joined): listed, and their rounds feed the instance. */
  async enter(instanceId: string, playerId: string, game: string | null = null): Promise<void> {
    if (this.stopped) return;
    const entry: MemberEntry = { game, seen: Date.now() };
    await this.redis
      .multi()
      .hset(membersKey(instanceId), playerId, JSON.stringify(entry))
      .expire(membersKey(instanceId), KEY_TTL_SECONDS)
      .set(whereKey(playerId), instanceId, "EX", KEY_TTL_SECONDS)
      .exec();
    this.changed(instanceId);
    // Every process's casino room of the player forgets what it cached about the player's instance.
    this.events.publish(playerId, { type: "together" });
  }

  /** The table the player sits at now, and whose table they watch. */
  async at(instanceId: string, playerId: string, doing: MemberDoing): Promise<void> {
    if (this.stopped) return;
    await this.redis.hset(membersKey(instanceId), playerId, JSON.stringify({ ...doing, seen: Date.now() } satisfies MemberEntry));
    this.changed(instanceId);
  }

  /** Keeps the entries of players still connected from going stale. */
  async refresh(instanceId: string, entries: Map<string, MemberDoing>): Promise<void> {
    if (entries.size === 0 || this.stopped) return;
    const now = Date.now();
    const fields = [...entries].flatMap(([id, doing]) => [id, JSON.stringify({ ...doing, seen: now } satisfies MemberEntry)]);
    await this.redis
      .multi()
      .hset(membersKey(instanceId), ...fields)
      .expire(membersKey(instanceId), KEY_TTL_SECONDS)
      .exec();
  }

  async leave(instanceId: string, playerId: string): Promise<void> {
    if (this.stopped) return;
    await this.redis.hdel(membersKey(instanceId), playerId);
    const where = await this.redis.get(whereKey(playerId));
    if (where === instanceId) await this.redis.del(whereKey(playerId));
    this.changed(instanceId);
    this.events.publish(playerId, { type: "together" });
  }

  /** The instance's members as `viewerId` sees them: others in anonymous mode come hidden. */
  async members(instanceId: string, viewerId: string): Promise<TogetherMember[]> {
    return this.membersFor(instanceId, [viewerId]).then((byViewer) => byViewer.get(viewerId)!);
  }

  /** The member list for each viewer, with one read of Redis and one of the database. */
  async membersFor(instanceId: string, viewerIds: readonly string[]): Promise<Map<string, TogetherMember[]>> {
    const raw = await this.redis.hgetall(membersKey(instanceId));
    const now = Date.now();
    const live: [string, MemberEntry][] = [];
    const stale: string[] = [];
    for (const [id, json] of Object.entries(raw)) {
      const entry = safeParse(json);
      if (entry && now - entry.seen < MEMBER_STALE_MS) live.push([id, entry]);
      else stale.push(id);
    }
    if (stale.length > 0) await this.redis.hdel(membersKey(instanceId), ...stale);
    const ids = live.map(([id]) => id);
    const [profiles, best] = await Promise.all([
      loadProfiles(this.db, ids),
      ids.length > 0 ? this.redis.hmget(bestKey(today(now)), ...ids) : Promise.resolve([] as (string | null)[]),
    ]);
    // Whom each member watches, as a Discord id; nobody is shown watching an anonymous player.
    const watchedDiscordId = (entry: MemberEntry) => {
      const watched = entry.watching ? profiles.get(entry.watching) : undefined;
      return watched && !watched.anonymousMode ? watched.discordId : null;
    };
    const answer = new Map<string, TogetherMember[]>();
    for (const viewer of viewerIds) {
      const members: TogetherMember[] = [];
      live.forEach(([id, entry], i) => {
        const profile = profiles.get(id);
        if (!profile) return;
        const self = id === viewer;
        const hidden = profile.anonymousMode && !self;
        members.push(
          hidden
            ? // The Discord id only, so the strip can leave out that participant of the call; nothing else.
              {
                discordId: profile.discordId,
                username: "Anonymous",
                avatarUrl: null,
                face: null,
                game: null,
                bestWinToday: 0,
                hidden: true,
                self,
                watching: null,
                sharedTable: null,
                holdemTable: null,
              }
            : {
                discordId: profile.discordId,
                username: profile.username,
                avatarUrl: profile.avatarUrl,
                face: faceOf(id),
                game: entry.game,
                bestWinToday: Number(best[i] ?? 0),
                hidden: false,
                self,
                watching: watchedDiscordId(entry),
                sharedTable: entry.sharedTable ?? null,
                holdemTable: entry.holdemTable ?? null,
              },
        );
      });
      answer.set(viewer, members);
    }
    return answer;
  }

  /** The live member of the instance with that Discord id, or null (not in the instance, or gone stale). */
  async memberByDiscordId(instanceId: string, discordId: string): Promise<WatchTarget | null> {
    const raw = await this.redis.hgetall(membersKey(instanceId));
    const now = Date.now();
    const ids = Object.entries(raw)
      .filter(([, json]) => {
        const entry = safeParse(json);
        return entry !== null && now - entry.seen < MEMBER_STALE_MS;
      })
      .map(([id]) => id);
    const profiles = await loadProfiles(this.db, ids);
    for (const id of ids) {
      const profile = profiles.get(id);
      if (profile?.discordId === discordId) return { playerId: id, anonymous: profile.anonymousMode };
    }
    return null;
  }

  /**
   * Whether a live member of the instance says they sit at `seat` of its shared blackjack table (the
   * place each client reports with `at`, as the strip shows it): one read of Redis.
   */
  async seatTaken(instanceId: string, seat: number): Promise<boolean> {
    const raw = await this.redis.hvals(membersKey(instanceId));
    const now = Date.now();
    return raw.some((json) => {
      const entry = safeParse(json);
      return entry !== null && now - entry.seen < MEMBER_STALE_MS && entry.sharedTable?.seat === seat;
    });
  }

  /** The player's open round as their own screen has it (the engine's public view), or null. */
  async openTable(playerId: string): Promise<WatchedRound | null> {
    const round = await openRoundOf(this.db, playerId);
    if (!round) return null;
    const { game, totalStake, totalPayout, view } = round;
    return { game, totalStake, totalPayout, multiplier: null, done: false, result: null, view };
  }

  /**
   * A step of the player's round (open or last): published on the instance's table channel for whoever
   * watches, with the view the player's own screen got. A player in no instance or in anonymous mode
   * publishes nothing (the identity is the feed's cached look-up).
   */
  roundStep(playerId: string, step: RoundStep): void {
    if (this.stopped) return;
    void this.publishStep(playerId, step).catch((error) => this.log.error("together:table", "table step not published", error));
  }

  private async publishStep(playerId: string, step: RoundStep): Promise<void> {
    const identity = await this.identity(playerId);
    if (!identity?.instanceId || identity.anonymous) return;
    const round: WatchedRound = {
      game: step.game,
      totalStake: step.totalStake,
      totalPayout: step.totalPayout,
      multiplier: step.done ? betMultiplier(step) : null,
      done: step.done,
      result: step.result,
      view: step.view,
    };
    await Promise.resolve(this.presence.publish(tableChannel(identity.instanceId), { playerId, round } satisfies TableStep));
  }

  /**
   * Who sent a reaction, as the other members are shown it: the name and Discord id, or "Anonymous"
   * without an id for a player in anonymous mode (the feed's cached look-up).
   */
  async reactionSender(playerId: string): Promise<{ username: string; discordId: string | null }> {
    const identity = await this.identity(playerId);
    if (!identity || identity.anonymous) return { username: ANONYMOUS_NAME, discordId: null };
    return { username: identity.username, discordId: identity.discordId };
  }

  /**
   * The player's anonymity (or name) changed: every process forgets what it cached of them, and the
   * instance they are in pushes its members and its board again, showing or hiding them.
   */
  async profileChanged(playerId: string): Promise<void> {
    if (this.stopped) return;
    this.identities.delete(playerId);
    this.events.publish(playerId, { type: "together" });
    const instanceId = await this.redis.get(whereKey(playerId));
    if (!instanceId) return;
    this.changed(instanceId);
    await Promise.resolve(this.presence.publish(boardChannel(instanceId), 1));
  }

  /** What this process cached of the player is out of date (they entered or left an instance, or changed profile). */
  forget(playerId: string): void {
    this.identities.delete(playerId);
  }

  /**
   * A round of the player settled: a row for the player's instance (if in one) and, for a big win, for
   * everyone. Fire and forget: the round is settled either way, a lost row is only logged.
   */
  roundSettled(playerId: string, round: SettledRound): void {
    const { serverSeedHash, nonce } = round.fairness;
    this.settled(playerId, {
      game: round.game,
      totalStake: round.totalStake,
      totalPayout: round.totalPayout,
      multiplier: betMultiplier(round),
      kind: "round",
      id: `${serverSeedHash}:${nonce}`,
      serverSeedHash,
      nonce,
    });
  }

  /**
   * A bet of a shared crash round, at the bust (the game hash is public from then on): its row, like a
   * solo round's. `place` tells apart the bets of one round (the bettor's place in the room);
   * `cashedOutAt` is the multiplier it was cashed out at, in hundredths, null for a bet lost at the bust.
   */
  crashSettled(
    playerId: string,
    bet: { stake: number; payout: number; cashedOutAt: number | null; gameHash: string; gameNumber: number; place: number },
  ): void {
    this.settled(playerId, {
      game: "crash",
      totalStake: bet.stake,
      totalPayout: bet.payout,
      // a cash-out's history row records the multiplier it was paid at; a lost bet's row tells none
      multiplier:
        bet.cashedOutAt === null
          ? null
          : roundMultiplier({ game: "crash", params: null, outcome: { cashedOutAt: bet.cashedOutAt }, payout: bet.payout }),
      kind: "crash",
      id: `crash:${bet.gameHash}:${bet.place}`,
      serverSeedHash: bet.gameHash,
      nonce: bet.gameNumber,
    });
  }

  /** A seat's settled round at the blackjack table, named by the shoe's commitment, the round and the seat. */
  tableSettled(playerId: string, seat: { stake: number; payout: number; shoeHash: string; round: number; seat: number }): void {
    this.settled(playerId, {
      game: "blackjack",
      totalStake: seat.stake,
      totalPayout: seat.payout,
      // a card game's hands are paid each on its own: no single multiplier, as in the seat's history row
      multiplier: null,
      kind: "table",
      id: `table:${seat.shoeHash}:${seat.round}:${seat.seat}`,
      serverSeedHash: seat.shoeHash,
      nonce: seat.round,
    });
  }

  /**
   * A player's part of a finished Hold'em hand: what the seat put in as the stake, what it won as the
   * payout, named by the hand's commitment and number. Published once the hand's result is committed,
   * so after its showdown; it carries no card (a mucked hand stays unseen).
   */
  holdemSettled(
    playerId: string,
    hand: { handId: string; handNumber: number; serverSeedHash: string; seat: number; putIn: number; won: number },
  ): void {
    this.settled(playerId, {
      game: HOLDEM_GAME,
      totalStake: hand.putIn,
      totalPayout: hand.won,
      // players play each other: nothing pays a multiple of a stake
      multiplier: null,
      kind: "holdem",
      id: `holdem:${hand.handId}:${hand.seat}`,
      serverSeedHash: hand.serverSeedHash,
      nonce: hand.handNumber,
    });
  }

  /** An accepted skill round: a row with no stake, the reward as its payout. */
  skillSettled(playerId: string, round: { game: string; roundId: string; reward: number }): void {
    this.settled(playerId, {
      game: round.game,
      totalStake: 0,
      totalPayout: round.reward,
      multiplier: null,
      kind: "skill",
      id: `skill:${round.roundId}`,
      serverSeedHash: null,
      nonce: null,
    });
  }

  private settled(playerId: string, source: FeedSource): void {
    if (this.stopped) return;
    void this.publishRound(playerId, source).catch((error) => this.log.error("together:feed", "feed row not published", error));
  }

  private async publishRound(playerId: string, round: FeedSource): Promise<void> {
    const big = isBigWin(round.totalStake, round.totalPayout);
    const identity = await this.identity(playerId);
    if (!identity || (!identity.instanceId && !big)) return;
    const net = round.totalPayout - round.totalStake;
    const row: FeedRow = {
      id: round.id,
      kind: round.kind,
      username: identity.anonymous ? "Anonymous" : identity.username,
      avatarUrl: identity.anonymous ? null : identity.avatarUrl,
      anonymous: identity.anonymous,
      game: round.game,
      stake: round.totalStake,
      payout: round.totalPayout,
      multiplier: round.multiplier,
      big,
      at: new Date().toISOString(),
      serverSeedHash: round.serverSeedHash,
      nonce: round.nonce,
    };
    let raised: Promise<unknown> = Promise.resolve(0);
    const work: Promise<unknown>[] = [];
    if (identity.instanceId) {
      work.push(Promise.resolve(this.presence.publish(feedChannel(identity.instanceId), row)));
      if (net > 0) raised = this.raiseBest(playerId, net);
    }
    if (big) work.push(Promise.resolve(this.presence.publish(FEED_GLOBAL_CHANNEL, row)));
    const [best] = await Promise.all([raised, ...work]);
    // The best win shown in the strip changed; a win below the day's best changes nothing the strip shows.
    if (identity.instanceId && Number(best) === 1) this.changed(identity.instanceId);
  }

  /** Raises the player's best win of the day to `net` if it is above it; 1 when it was raised, 0 if not. */
  private async raiseBest(playerId: string, net: number): Promise<unknown> {
    const day = today();
    const known = this.knownBest.get(playerId);
    if (known?.day === day && net <= known.net) return 0;
    const raised = await this.redis.eval(RAISE_BEST, 1, bestKey(day), playerId, String(net), String(2 * KEY_TTL_SECONDS));
    // Raised or not, the day's best is at least this win now.
    this.knownBest.delete(playerId);
    this.knownBest.set(playerId, { day, net: Math.max(net, known?.day === day ? known.net : 0) });
    if (this.knownBest.size > 50_000) this.knownBest.delete(this.knownBest.keys().next().value!);
    return raised;
  }

  private async identity(playerId: string): Promise<FeedIdentity | null> {
    const cached = this.identities.get(playerId);
    if (cached && cached.expires > Date.now()) return cached;
    const [instanceId, profiles] = await Promise.all([this.redis.get(whereKey(playerId)), loadProfiles(this.db, [playerId])]);
    const profile = profiles.get(playerId);
    if (!profile) return null;
    const identity: FeedIdentity = {
      instanceId,
      discordId: profile.discordId,
      username: profile.username,
      avatarUrl: profile.avatarUrl,
      anonymous: profile.anonymousMode,
      expires: Date.now() + PLAYER_CACHE_MS,
    };
    this.identities.set(playerId, identity);
    if (this.identities.size > 50_000) this.identities.delete(this.identities.keys().next().value!);
    return identity;
  }

  private changed(instanceId: string): void {
    void Promise.resolve(this.presence.publish(membersChannel(instanceId), 1)).catch(() => undefined);
  }
}

function safeParse(json: string): MemberEntry | null {
  try {
    const value = JSON.parse(json) as MemberEntry;
    return typeof value.seen === "number" ? value : null;
  } catch {
    return null;
  }
}
