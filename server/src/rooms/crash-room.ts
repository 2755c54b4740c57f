import { ErrorCode, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import {
  ACCOUNT_CLOSED_CLOSE_CODE,
  CRASH_MESSAGES,
  crashBetMessage,
  crashCashOutMessage,
  crashJoinOptions,
  crashMultiplierAt,
  crashReachedAtMs,
  type CrashCashOutAnswer,
  type CrashPhase,
} from "@casino/common";
import type { SessionClaims } from "../auth/session";
import { AppError } from "../errors";
import { countCrashStep } from "../metrics";
import type { Services } from "../services";
import { crashScopeOf, roomScope } from "./crash-scope";
import { CrashBetView, CrashHistoryEntry, CrashState } from "./crash-state";
import type { OpenedRound, RevealedRound } from "../db/crash-store";
import { RoomRequests } from "./room-messages";

interface CrashAuth extends SessionClaims {
  scope: string;
}
type CrashClient = Client<{ auth: CrashAuth }>;

/** A bet of the current round as the room tracks it between the ledger's answers. */
interface LiveBet {
  playerId: string;
  amount: number;
  autoCashOut: number | null;
  /** A cash-out (the player's or the automatic one) has been sent to the ledger. */
  cashOut: { requestId: string; answer: Promise<CrashCashOutAnswer> } | null;
  view: CrashBetView;
}

export const CRASH_HISTORY_SHOWN = 20;

/** The player of a joined client (onJoin refused every client without a session). */
const playerOf = (client: CrashClient): string => client.auth!.playerId;

/**
 * The crash room type of one app: the room class with that app's services, and an onAuth that checks the
 * session token and decides the player's scope (crash-scope.ts) before any room is found or created.
 */
export function crashRoom(services: Services) {
  return class AppCrashRoom extends CrashRoom {
    protected override readonly services = services;

    static override async onAuth(token: string, options: unknown, _context: AuthContext): Promise<CrashAuth> {
      try {
        const claims = await services.tokens.verify(token);
        return { ...claims, scope: await crashScopeOf(services.instances, claims, options) };
      } catch (error) {
        // The matchmaker answers with the error's numeric code: the player gets the message as it is.
        if (error instanceof AppError) throw new ServerError(ErrorCode.AUTH_FAILED, error.message);
        throw error;
      }
    }
  };
}

/**
 * The shared crash room (bustabit's model): one per Discord activity instance, one public room. Rounds
 * repeat: betting for a few seconds, then the multiplier runs up the curve until the round's crash
 * point, fixed in advance by the scope's hash chain, then the bust and the revealed game hash.
 *
 * Money moves only through the ledger: a bet is debited when placed, a cash-out is a guarded update
 * (the bet still in, the round running, the multiplier at or below the crash point), and the bust marks
 * the rest lost. Whether a cash-out is in time is decided from the crash point and the time since the
 * run started, never from which timer fired first. A round left open by a process that stopped is
 * settled by the restart rule (CrashStore.recover).
 */
export abstract class CrashRoom extends Room<{ state: CrashState; client: CrashClient }> {
  protected abstract readonly services: Services;

  private scope = "";
  private phase: CrashPhase = "waiting";
  private round: OpenedRound | null = null;
  private runStartedAt = 0;
  private readonly live = new Map<string, LiveBet>();
  /** Ledger calls of the current round still in flight: phase changes wait for them. */
  private readonly pending = new Set<Promise<unknown>>();
  private readonly names = new Map<string, string>();
  private readonly wakers = new Set<() => void>();
  private leaseTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private looping: Promise<void> = Promise.resolve();

  private get s(): Services {
    return this.services;
  }

  override onCreate(options: unknown): void {
    this.scope = roomScope(crashJoinOptions.parse(options));
    this.autoDispose = false;
    this.state = new CrashState();
    this.state.curveRate = this.s.config.crash.curveRate;
    const requests = new RoomRequests<CrashClient>(this, this.s, playerOf);
    requests.handle(CRASH_MESSAGES.bet, {
      schema: crashBetMessage,
      // The same per-player bet budget as the casino room, shared by every connection and process.
      limit: "bet",
      work: (client, msg) => this.placeBet(playerOf(client), msg.requestId, msg.amount, msg.autoCashOut ?? null),
    });
    // A cash-out costs no new budget: it settles a bet already charged, and a refusal would lose the moment.
    requests.handle(CRASH_MESSAGES.cashOut, {
      schema: crashCashOutMessage,
      work: (client, msg) => this.cashOut(playerOf(client), msg.requestId),
    });
    this.looping = this.loop();
  }

  override async onJoin(client: CrashClient): Promise<void> {
    if (!client.auth) throw new AppError("unauthorized", 401, "Authentication required");
    if (client.auth.scope !== this.scope) throw new AppError("forbidden", 403, "This crash room belongs to another activity instance");
    const player = await this.s.players.get(client.auth.playerId);
    this.names.set(player.id, player.anonymousMode ? "Anonymous" : player.username);
  }

  override async onDrop(client: CrashClient, code?: number): Promise<void> {
    // A closed account's connection was ended on purpose: no seat is kept for it.
    if (code === ACCOUNT_CLOSED_CLOSE_CODE) return;
    // Bets live in the database whatever happens to the connection; the seat is kept for a moment.
    await this.allowReconnection(client, 20);
  }

  override async onDispose(): Promise<void> {
    this.stop();
    await this.looping;
    // A round cut short by a shutdown is settled now by the restart rule, rather than after its lease.
    const round = this.round;
    if (round) {
      await Promise.allSettled([...this.pending]);
      await this.s.crash
        .recover(round.roundId, true)
        .catch((error) => this.s.log.error("crash:recover", "crash room: settling the open round failed", error));
    }
  }

  // ── The round loop ──────────────────────────────────────────────────────────────────────────────

  private async loop(): Promise<void> {
    await this.publishChainAndHistory().catch((error) =>
      this.s.log.error("crash:history", "crash room: loading the history failed", error),
    );
    while (!this.stopped) {
      // Nobody here: between rounds, Colyseus may close the room (it also waits for seats being taken).
      while (!this.stopped && this.clients.length === 0) {
        this.autoDispose = true;
        await this.sleep(250);
      }
      if (this.stopped) return;
      this.autoDispose = false;
      try {
        const round = await this.open();
        if (!round) continue;
        await this.betting();
        // Stopped at any point before the bust: the round stays open for onDispose to settle by the
        // restart rule; it is never busted early.
        if (this.stopped) return;
        const running = await this.startRun(round);
        if (this.stopped) return;
        if (running) {
          await this.run(round);
          if (this.stopped) return;
          await this.bust(round);
        }
        this.endRound();
        await this.sleep(this.s.config.crash.bustedMs);
      } catch (error) {
        if (this.stopped) return;
        this.s.log.error("crash:round", "crash room: round failed", error);
        this.endRound();
        await this.sleep(1_000);
      }
    }
  }

  /** The next round of this scope, once no other process has one in play. */
  private async open(): Promise<OpenedRound | null> {
    const result = await this.s.crash.openRound(this.scope);
    if ("stale" in result) {
      await this.s.crash.recover(result.stale);
      await this.publishChainAndHistory();
      return null;
    }
    if ("busy" in result) {
      this.state.phase = "waiting";
      await this.sleep(Math.ceil(this.s.config.crash.leaseMs / 2));
      return null;
    }
    const round = result.opened;
    this.round = round;
    this.live.clear();
    this.state.bets.clear();
    Object.assign(this.state, {
      roundId: round.roundId,
      gameNumber: round.gameNumber,
      terminatingHash: round.chain.terminatingHash,
      salt: round.chain.salt,
      chainLength: round.chain.length,
      crashPoint: 0,
      gameHash: "",
      multiplier: 100,
      elapsedMs: 0,
      runStartedAt: 0,
    });
    const lease = this.s.config.crash.leaseMs;
    this.leaseTimer = setInterval(
      () => void this.s.crash.renewLease(round.roundId).catch(() => undefined),
      Math.max(100, Math.floor(lease / 3)),
    );
    return round;
  }

  private async betting(): Promise<void> {
    this.phase = "betting";
    this.state.phase = "betting";
    this.state.bettingEndsAt = Date.now() + this.s.config.crash.bettingMs;
    await this.sleep(this.s.config.crash.bettingMs);
  }

  /** Closes betting: refuses new bets at once, lets the ones in flight finish, then starts the run. */
  private async startRun(round: OpenedRound): Promise<boolean> {
    this.phase = "running";
    await Promise.allSettled([...this.pending]);
    if (this.stopped || !(await this.s.crash.startRunning(round.roundId))) return false;
    this.runStartedAt = Date.now();
    this.state.runStartedAt = this.runStartedAt;
    this.state.phase = "running";
    return true;
  }

  /** Ticks the multiplier, cashes out the automatic targets it reaches, and returns at the bust. */
  private run(round: OpenedRound): Promise<void> {
    const { tickMs, curveRate } = this.s.config.crash;
    const bustAt = crashReachedAtMs(round.crashPoint, curveRate);
    return new Promise((resolve) => {
      const tick = () => {
        if (this.stopped) return resolve();
        const elapsed = Date.now() - this.runStartedAt;
        const m = crashMultiplierAt(elapsed, curveRate);
        const reached = Math.min(m, round.crashPoint);
        for (const bet of this.live.values()) {
          if (bet.view.status === "active" && !bet.cashOut && bet.autoCashOut !== null && bet.autoCashOut <= reached) {
            void this.settleCashOut(round, bet, bet.autoCashOut, "auto", `server#crash-auto:${round.roundId}:${bet.playerId}`).catch(
              () => undefined,
            );
          }
        }
        if (m >= round.crashPoint) {
          this.phase = "busted";
          return resolve();
        }
        this.state.multiplier = m;
        this.state.elapsedMs = elapsed;
        this.timer(tick, Math.max(1, Math.min(tickMs, bustAt - elapsed)));
      };
      tick();
    });
  }

  /** The bust: waits for cash-outs in flight, marks the rest lost, reveals the game's hash. */
  private async bust(round: OpenedRound): Promise<void> {
    this.phase = "busted";
    await Promise.allSettled([...this.pending]);
    const busted = await this.s.crash.bust(round.roundId);
    if (!busted) {
      // Another process settled this round (our lease lapsed): show what the database says.
      await this.reloadBets(round.roundId);
      await this.publishChainAndHistory();
      return;
    }
    for (const bet of this.live.values()) if (bet.view.status === "active") bet.view.status = "lost";
    // Each bet of the round feeds its player's activity instance (and the big wins), now that the game
    // hash is public: the same rows as a solo round's.
    let place = 0;
    for (const bet of this.live.values()) {
      const payout = bet.view.status === "cashed_out" ? bet.view.payout : 0;
      this.s.together.crashSettled(bet.playerId, {
        stake: bet.amount,
        payout,
        gameHash: round.gameHash,
        gameNumber: round.gameNumber,
        place: place++,
      });
    }
    Object.assign(this.state, { phase: "busted", multiplier: round.crashPoint, crashPoint: round.crashPoint, gameHash: round.gameHash });
    this.addHistory({
      roundId: round.roundId,
      gameNumber: round.gameNumber,
      gameHash: round.gameHash,
      crashPoint: round.crashPoint,
      phase: "busted",
      terminatingHash: round.chain.terminatingHash,
      rounding: round.rounding,
    });
  }

  private endRound(): void {
    clearInterval(this.leaseTimer);
    this.leaseTimer = undefined;
    this.round = null;
    this.phase = "busted";
  }

  // ── Bets and cash-outs ──────────────────────────────────────────────────────────────────────────

  private async placeBet(playerId: string, requestId: string, amount: number, autoCashOut: number | null) {
    const round = this.round;
    if (!round || this.phase !== "betting") throw new AppError("betting_closed", 409, "Bets are closed for this round");
    const auto = autoCashOut === null ? null : Math.round(autoCashOut * 100);
    const answer = await this.track(
      this.s.ledger.placeCrashBet(playerId, requestId, { roundId: round.roundId, amount, autoCashOut: auto }),
    );
    if (!this.live.has(playerId) && answer.roundId === round.roundId) {
      const view = new CrashBetView();
      Object.assign(view, { playerId, username: this.names.get(playerId) ?? "Player", amount, autoCashOut: auto ?? 0, status: "active" });
      this.live.set(playerId, { playerId, amount, autoCashOut: auto, cashOut: null, view });
      this.state.bets.set(playerId, view);
      this.s.events.publish(playerId, { type: "balance", balance: answer.balance, delta: -amount, reason: "crash" });
      countCrashStep("bet");
    }
    return answer;
  }

  private async cashOut(playerId: string, requestId: string): Promise<CrashCashOutAnswer> {
    const round = this.round;
    const bet = this.live.get(playerId);
    // A repeated request (a retry, a message queued during a reconnect) gets the first one's answer.
    if (bet?.cashOut?.requestId === requestId) return bet.cashOut.answer;
    // A second cash-out is answered as such even when it is handled after the bust (a player's
    // messages run in order, so it waits for the first one).
    if (bet && (bet.cashOut || bet.view.status === "cashed_out"))
      throw new AppError("already_cashed_out", 409, "You have already cashed out");
    if (!round || this.phase !== "running") {
      throw new AppError("not_running", 409, this.phase === "betting" ? "The round has not started yet" : "Too late: the round has busted");
    }
    if (!bet) throw new AppError("no_bet", 409, "You have no bet in this round");
    if (bet.view.status !== "active") throw new AppError("already_cashed_out", 409, "You have already cashed out");
    const m = crashMultiplierAt(Date.now() - this.runStartedAt, this.s.config.crash.curveRate);
    // The curve has passed the crash point: the round is over, whether or not the bust tick has run.
    if (m > round.crashPoint) throw new AppError("not_running", 409, "Too late: the round has busted");
    const at = bet.autoCashOut === null ? m : Math.min(m, bet.autoCashOut);
    return this.settleCashOut(round, bet, at, "player", requestId);
  }

  private settleCashOut(
    round: OpenedRound,
    bet: LiveBet,
    at: number,
    by: "player" | "auto",
    requestId: string,
  ): Promise<CrashCashOutAnswer> {
    const work = this.s.ledger.cashOutCrashBet(bet.playerId, requestId, { roundId: round.roundId, cashedOutAt: at, by }).then(
      (answer) => {
        Object.assign(bet.view, { status: "cashed_out", cashedOutAt: answer.cashedOutAt, payout: answer.payout });
        countCrashStep("cashout");
        this.s.events.publish(bet.playerId, { type: "balance", balance: answer.balance, delta: answer.payout, reason: "crash" });
        return answer;
      },
      (error) => {
        // Refused by the ledger's guard: the bet stays with the round and is settled by the bust.
        bet.cashOut = null;
        throw error;
      },
    );
    bet.cashOut = { requestId, answer: work };
    return this.track(work);
  }

  // ── Helpers ─────────────────────────────────────────────────────────────────────────────────────

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    const done = () => this.pending.delete(work);
    work.then(done, done);
    return work;
  }

  private async publishChainAndHistory(): Promise<void> {
    const chain = await this.s.crash.chainOf(this.scope);
    Object.assign(this.state, { terminatingHash: chain.terminatingHash, salt: chain.salt, chainLength: chain.length });
    this.state.history.clear();
    const history = await this.s.crash.history(this.scope, CRASH_HISTORY_SHOWN);
    for (const game of history.reverse()) this.addHistory(game);
  }

  private addHistory(game: RevealedRound): void {
    const entry = new CrashHistoryEntry();
    Object.assign(entry, game);
    this.state.history.unshift(entry);
    while (this.state.history.length > CRASH_HISTORY_SHOWN) this.state.history.pop();
  }

  private async reloadBets(roundId: string): Promise<void> {
    for (const stored of await this.s.crash.bets(roundId)) {
      const view = this.state.bets.get(stored.playerId);
      if (view) Object.assign(view, { status: stored.status, cashedOutAt: stored.cashedOutAt ?? 0, payout: stored.payout });
    }
  }

  private timer(fn: () => void, ms: number): void {
    const handle = setTimeout(() => {
      this.wakers.delete(wake);
      fn();
    }, ms);
    const wake = () => {
      clearTimeout(handle);
      fn();
    };
    this.wakers.add(wake);
  }

  /** Resolves after `ms`, or at once when the room stops. */
  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.timer(resolve, ms));
  }

  private stop(): void {
    this.stopped = true;
    clearInterval(this.leaseTimer);
    const wakers = [...this.wakers];
    this.wakers.clear();
    for (const wake of wakers) wake();
  }
}
