import pg from "pg";
import { WebSocket as NodeWebSocket } from "ws";
import { Client, type Room } from "@colyseus/sdk";
import {
  REACTION_NAMES,
  TOGETHER_MESSAGES,
  TOGETHER_PUSH,
  TOGETHER_ROOM,
  togetherReactMessage,
  type FeedPush,
  type ReactionPush,
  type TonightBoardPush,
} from "@casino/common";

/** One member of an activity instance as the bench signed it. */
export interface InstanceMember {
  instanceId: string;
  playerId: string;
  token: string;
}

/** What the members heard in one measured window. */
export interface WindowCounts {
  /** Reactions the reacting members sent, and the answers they had (an echo, or a refusal by its code). */
  reactionsSent: number;
  reactionsEchoed: number;
  refused: Map<string, number>;
  /** Reactions that reached another member of the sender's instance, and when (ms from sending). */
  reactionDelays: number[];
  /** Reactions not heard back at all by the end of the window (neither echoed nor refused). */
  reactionsUnanswered: number;
  /** Deliveries owed: for each echoed reaction, the other members connected to its room. */
  reactionDeliveriesOwed: number;
  /** `board` pushes received by the members, and feed rows. */
  boardPushes: number;
  feedRows: number;
  /** Other `error` pushes, by code. */
  errors: Map<string, number>;
}

const emptyCounts = (): WindowCounts => ({
  reactionsSent: 0,
  reactionsEchoed: 0,
  refused: new Map(),
  reactionDelays: [],
  reactionsUnanswered: 0,
  reactionDeliveriesOwed: 0,
  boardPushes: 0,
  feedRows: 0,
  errors: new Map(),
});

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
/** This process's wall clock with sub-millisecond precision (PostgreSQL's clock is the same machine's). */
const wallNow = () => performance.timeOrigin + performance.now();

interface Joined {
  member: InstanceMember;
  room: Room;
  /** When the board shown to this member first counted more rounds of the instance: [wall ms, rounds]. */
  shown: [number, number][];
}

/** A reaction on its way: when its sender sent it, and the other members who heard it before its echo. */
interface Pending {
  sentAt: number;
  others: number;
}

/**
 * The members of the bench's activity instances, every one a together-room connection of this process,
 * measured where a player would see things: at the receiving client. Counts the feed rows and `board`
 * (Tonight) pushes each member receives and when its board first shows more of the instance's rounds;
 * makes one member of each instance react `perSecond` times a second, and times each reaction from its
 * sending until each other member of the instance receives it.
 */
export class InstanceMembers {
  private readonly joined: Joined[] = [];
  private counts = emptyCounts();
  /** Per reacting member: the sending times of its reactions not answered yet, oldest first. */
  private readonly outstanding = new Map<Joined, number[]>();
  /** Per reaction (its push id), once its sender heard it back. */
  private readonly sent = new Map<string, Pending>();
  /** Per reaction heard by other members before its sender's echo: when each heard it. */
  private readonly early = new Map<string, number[]>();
  private reacting: { stop: () => void } | null = null;

  private constructor(private readonly client: Client) {}

  /** Joins every member to its instance's together room, one after the other (the first of each instance creates it). */
  static async join(url: string, members: InstanceMember[]): Promise<InstanceMembers> {
    (globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;
    const out = new InstanceMembers(new Client(url.replace(/^http/, "ws")));
    for (const member of members) await out.add(member);
    return out;
  }

  private async add(member: InstanceMember): Promise<void> {
    this.client.auth.token = member.token;
    const room = await this.client.joinOrCreate(TOGETHER_ROOM, { instanceId: member.instanceId });
    const joined: Joined = { member, room, shown: [] };
    room.onMessage(TOGETHER_PUSH.feed, (body: FeedPush) => (this.counts.feedRows += body.instance.length));
    room.onMessage(TOGETHER_PUSH.board, (body: TonightBoardPush) => {
      const at = wallNow();
      this.counts.boardPushes += 1;
      const rounds = body.rows.reduce((n, row) => n + row.rounds, 0);
      const last = joined.shown[joined.shown.length - 1];
      if (!last || rounds > last[1]) joined.shown.push([at, rounds]);
    });
    room.onMessage(TOGETHER_PUSH.reaction, (push: ReactionPush) => this.onReaction(joined, push, performance.now()));
    room.onMessage(TOGETHER_PUSH.error, (body: { code?: string }) => {
      const code = body?.code ?? "error";
      const waiting = this.outstanding.get(joined);
      // A refusal answers the reacting member's oldest reaction (only reacting members send anything).
      if (waiting?.length) {
        waiting.shift();
        bump(this.counts.refused, code);
      } else bump(this.counts.errors, code);
    });
    room.onMessage("*", () => undefined);
    this.joined.push(joined);
  }

  private onReaction(joined: Joined, push: ReactionPush, now: number): void {
    if (push.self) {
      const sentAt = this.outstanding.get(joined)?.shift();
      if (sentAt === undefined) return;
      this.counts.reactionsEchoed += 1;
      this.counts.reactionDeliveriesOwed += this.joined.filter(
        (j) => j !== joined && j.member.instanceId === joined.member.instanceId,
      ).length;
      const pending: Pending = { sentAt, others: 0 };
      for (const at of this.early.get(push.id) ?? []) this.delivered(pending, at);
      this.early.delete(push.id);
      this.sent.set(push.id, pending);
      return;
    }
    const pending = this.sent.get(push.id);
    if (pending) this.delivered(pending, now);
    else this.early.set(push.id, [...(this.early.get(push.id) ?? []), now]);
  }

  private delivered(pending: Pending, at: number): void {
    pending.others += 1;
    this.counts.reactionDelays.push(at - pending.sentAt);
  }

  get connections(): number {
    return this.joined.length;
  }

  /** Starts a measured window: what was counted so far is forgotten. */
  reset(): void {
    this.counts = emptyCounts();
    this.sent.clear();
    this.early.clear();
  }

  /** Ends a window: its counts (reactions still unanswered are counted as such). */
  take(): WindowCounts {
    const counts = this.counts;
    for (const waiting of this.outstanding.values()) {
      counts.reactionsUnanswered += waiting.length;
      waiting.length = 0;
    }
    this.reset();
    return counts;
  }

  /**
   * Makes the second member of each instance (the first is its bettor) send a reaction on the instance's
   * crash round `perSecond` times a second, on a fixed schedule spread over the first interval: the
   * server's default budgets are one a second per player (REACTIONS_PER_SECOND, bursts of 3) and ten a
   * second per instance (INSTANCE_REACTIONS_PER_SECOND).
   */
  startReacting(perSecond: number): void {
    this.stopReacting();
    const interval = 1000 / perSecond;
    const byInstance = new Map<string, Joined[]>();
    for (const j of this.joined) byInstance.set(j.member.instanceId, [...(byInstance.get(j.member.instanceId) ?? []), j]);
    const reactors = [...byInstance.values()].map((members) => members[1] ?? members[0]!);
    const timers = new Set<NodeJS.Timeout>();
    let stopped = false;
    for (const reactor of reactors) {
      if (!this.outstanding.has(reactor)) this.outstanding.set(reactor, []);
      let due = performance.now() + Math.random() * interval;
      const tick = () => {
        if (stopped) return;
        const message = togetherReactMessage.parse({
          reaction: REACTION_NAMES[Math.floor(Math.random() * REACTION_NAMES.length)]!,
          target: { kind: "crash-round" },
        });
        this.outstanding.get(reactor)!.push(performance.now());
        this.counts.reactionsSent += 1;
        reactor.room.send(TOGETHER_MESSAGES.react, message);
        due += interval;
        const timer = setTimeout(tick, Math.max(0, due - performance.now()));
        timers.add(timer);
      };
      timers.add(setTimeout(tick, Math.max(0, due - performance.now())));
    }
    this.reacting = {
      stop: () => {
        stopped = true;
        for (const t of timers) clearTimeout(t);
      },
    };
  }

  stopReacting(): void {
    this.reacting?.stop();
    this.reacting = null;
  }

  /**
   * Waits (up to `timeoutMs`, polling) until every reaction sent has been answered and every echoed one
   * has reached the other members; what is still missing then is counted as such by `take()`.
   */
  async reactionsSettled(timeoutMs: number): Promise<void> {
    const until = performance.now() + timeoutMs;
    const waiting = () =>
      [...this.outstanding.values()].some((w) => w.length > 0) || this.counts.reactionDelays.length < this.counts.reactionDeliveriesOwed;
    while (performance.now() < until && waiting()) await new Promise((r) => setTimeout(r, 20));
  }

  /**
   * Waits (up to `timeoutMs`) until every member's board shows all of its instance's rounds recorded so
   * far (Tonight's own count, read from the database), polling.
   */
  async boardsCaughtUp(databaseUrl: string, timeoutMs: number): Promise<void> {
    const until = performance.now() + timeoutMs;
    for (;;) {
      const settled = await settledRounds(databaseUrl, this.instanceIds());
      const behind = this.joined.some((j) => (j.shown[j.shown.length - 1]?.[1] ?? 0) < (settled.get(j.member.instanceId)?.length ?? 0));
      if (!behind || performance.now() > until) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * Tonight's delivery of the rounds settled between `from` and `to` (wall ms): for each round and each
   * member, the time from the round's record (its record's `created_at`, what the board counts) until
   * the first board the member received that counted it; rounds no board showed the member are `missed`.
   */
  async tonightDelays(databaseUrl: string, from: number, to: number): Promise<{ rounds: number; delays: number[]; missed: number }> {
    const settled = await settledRounds(databaseUrl, this.instanceIds());
    let rounds = 0;
    for (const list of settled.values()) rounds += list.filter((at) => at >= from && at < to).length;
    const delays: number[] = [];
    let missed = 0;
    for (const j of this.joined) {
      const list = settled.get(j.member.instanceId) ?? [];
      let next = 0;
      for (let k = 0; k < list.length; k++) {
        const at = list[k]!;
        while (next < j.shown.length && j.shown[next]![1] < k + 1) next++;
        if (at < from || at >= to) continue;
        if (next < j.shown.length) delays.push(j.shown[next]![0] - at);
        else missed += 1;
      }
    }
    return { rounds, delays, missed };
  }

  private instanceIds(): string[] {
    return [...new Set(this.joined.map((j) => j.member.instanceId))];
  }

  async leave(): Promise<void> {
    this.stopReacting();
    for (const j of this.joined) await j.room.leave(true).catch(() => undefined);
  }
}

/**
 * Per instance, the times (wall ms) of the rounds its Tonight board counts today, oldest first: its
 * members' round records since each one's first join of the day, the rule of `tonightFigures`.
 */
async function settledRounds(databaseUrl: string, instanceIds: string[]): Promise<Map<string, number[]>> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ instance_id: string; at: string }>(
      `SELECT j.instance_id, extract(epoch FROM g.created_at) * 1000 AS at
         FROM tonight_joins j JOIN game_sessions g ON g.player_id = j.player_id AND g.created_at >= j.joined_at
        WHERE j.instance_id = ANY($1::text[]) AND j.day = (now() AT TIME ZONE 'UTC')::date
        ORDER BY j.instance_id, g.created_at, g.seq`,
      [instanceIds],
    );
    const out = new Map<string, number[]>();
    for (const r of rows) {
      let list = out.get(r.instance_id);
      if (!list) out.set(r.instance_id, (list = []));
      list.push(Number(r.at));
    }
    return out;
  } finally {
    await c.end();
  }
}

/** p50, p99 and max of a list of ms, or null when empty. */
export function percentiles(values: number[]): { p50: number; p99: number; max: number } | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}
