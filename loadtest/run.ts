import { VirtualPlayer, type PlayerContext } from "./player";
import { TokenBucket, sleep } from "./limiter";
import { Stats } from "./stats";
import type { Scenario } from "./scenario";

export interface RunOptions {
  /** One server URL, or several separated by commas (players are spread over them). */
  url: string;
  players: number;
  /** Players start evenly over this many seconds. */
  rampSeconds: number;
  scenario: Scenario;
  /** Session tokens to use instead of creating guests (one per player, reused round-robin if short). */
  tokens?: string[];
  /** Room requests per second per player (the server's BET_RATE_PER_SECOND). */
  betRate: number;
  /** REST requests a minute this run may send (the server allows 600 per IP). */
  restPerMinute: number;
  ignoreLimits: boolean;
  timeoutMs: number;
  /** Index of this run's first player, when several processes share one load. */
  firstIndex?: number;
  /** Players wait here after joining, before their scenario starts. */
  gate?: Promise<void>;
  /** Tries of the first join before a player gives up (1 by default). */
  joinAttempts?: number;
}

/** One process's share of a load: its players, from login to leave. */
export class LoadRun implements PlayerContext {
  readonly stats = new Stats();
  readonly restPerIp: TokenBucket;
  stopping = false;
  /** Players that have signed in and joined (or gave up doing so): at the gate when the run is gated. */
  settled = 0;
  /** Players that have started, are in a room now, and have finished. */
  started = 0;
  inRoom = 0;
  finished = 0;
  private readonly lifecycles: Promise<void>[] = [];
  /** Pauses in progress, woken early when the run stops. */
  private readonly pauses = new Set<() => void>();
  private launcher: Promise<void> | undefined;

  constructor(readonly options: RunOptions) {
    const perSecond = options.restPerMinute / 60;
    this.restPerIp = new TokenBucket(perSecond * 0.95, Math.max(1, Math.min(20, perSecond)), !options.ignoreLimits);
  }

  get urls() {
    return this.options.url.split(",").map((u) => u.trim().replace(/\/$/, ""));
  }
  get betRate() {
    return this.options.betRate;
  }
  get ignoreLimits() {
    return this.options.ignoreLimits;
  }
  get timeoutMs() {
    return this.options.timeoutMs;
  }

  /** Starts the players (spread over the ramp); resolves once the last one has been started. */
  start(): Promise<void> {
    const { players, rampSeconds } = this.options;
    const gap = players > 1 ? (rampSeconds * 1000) / players : 0;
    this.launcher = (async () => {
      const t0 = performance.now();
      for (let i = 0; i < players && !this.stopping; i++) {
        const due = t0 + i * gap;
        if (due > performance.now()) await sleep(due - performance.now());
        this.started++;
        this.lifecycles.push(this.lifecycle(new VirtualPlayer((this.options.firstIndex ?? 0) + i, this)));
      }
    })();
    return this.launcher;
  }

  pause(ms: number): Promise<void> {
    if (this.stopping || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.pauses.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.pauses.add(wake);
    });
  }

  /** Ends the run: scenarios stop at their next step, players leave their rooms. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of [...this.pauses]) wake();
    await this.launcher;
    await Promise.all(this.lifecycles);
  }

  private async lifecycle(p: VirtualPlayer): Promise<void> {
    const { scenario, tokens } = this.options;
    const needsRoom = scenario.joinsRoom !== false;
    let counted = false;
    const track = () => {
      const now = needsRoom && p.room !== undefined;
      if (now !== counted) this.inRoom += now ? 1 : -1;
      counted = now;
    };
    try {
      const token = tokens && tokens.length > 0 ? tokens[p.index % tokens.length] : undefined;
      if (!(await p.login(token))) {
        this.stats.joinFailures++;
        this.settled++;
        return;
      }
      if (needsRoom && !(await this.firstJoin(p))) {
        this.settled++;
        return;
      }
      track();
      this.settled++;
      await this.options.gate;
      if (this.stopping) return;
      await this.guarded(() => scenario.setup?.(p));
      while (!this.stopping) {
        if (needsRoom && !p.room) {
          // The seat is gone for good (a failed reconnection): join again after a pause, as a client would.
          track();
          await p.think(1000);
          if (this.stopping || !(await p.join())) continue;
          track();
        }
        await this.guarded(
          () => scenario.step(p),
          () => p.think(1000),
        );
        track();
      }
    } finally {
      await p.leave().catch(() => undefined);
      track();
      this.finished++;
    }
  }

  private async firstJoin(p: VirtualPlayer): Promise<boolean> {
    const attempts = Math.max(1, this.options.joinAttempts ?? 1);
    for (let i = 1; i <= attempts && !this.stopping; i++) {
      if (await p.join(i === attempts)) return true;
      await p.think(200 * i);
    }
    return false;
  }

  /** A scenario that throws is counted, not fatal: the player carries on after `recover`. */
  private async guarded(work: () => Promise<void> | undefined, recover?: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.stats.error(`scenario threw: ${error instanceof Error ? error.message.slice(0, 80) : String(error)}`);
      await recover?.();
    }
  }
}
