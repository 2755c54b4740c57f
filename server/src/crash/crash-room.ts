import { ErrorCode, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import {
  ACCOUNT_CLOSED_CLOSE_CODE,
  ANONYMOUS_NAME,
  CRASH_MESSAGES,
  crashBetMessage,
  crashCashOutMessage,
  crashJoinOptions,
} from "@casino/common";
import type { SessionClaims } from "../core/auth/session";
import { RoomPlayers } from "../core/rooms/room-players";
import { AppError } from "../platform/errors";
import { countCrashStep } from "../core/metrics";
import type { CoreServices } from "../core/services";
import type { CrashStore } from "./crash-store";
import type { CrashLedger } from "./crash-money";
import type { Together } from "../together/together";
import { crashScopeOf, roomScope } from "../core/rooms/room-scope";
import { CrashBetView, CrashHistoryEntry, CrashState } from "./crash-state";
import type { RevealedRound } from "./crash-store";
import type { ClockTimer } from "../platform/clock";
import { crashStep, initialCrashState, type CrashEffect, type CrashEvent, type CrashMachineState } from "./crash-machine";
import { RoomRequests } from "../core/rooms/room-messages";
import { setAutoDispose } from "../core/rooms/auto-dispose";

interface CrashAuth extends SessionClaims {
  scope: string;
}
type CrashClient = Client<{ auth: CrashAuth }>;

export const CRASH_HISTORY_SHOWN = 20;

/** The player of a joined client (onJoin refused every client without a session). */
const playerOf = (client: CrashClient): string => client.auth!.playerId;

/** The services the room uses. */
export type CrashRoomServices = Pick<
  CoreServices,
  "clock" | "config" | "db" | "instances" | "lifecycle" | "log" | "players" | "roomLimits" | "standIns" | "tokens"
> & { crash: CrashStore; ledger: CrashLedger; together: Pick<Together, "crashSettled"> };

/**
 * The crash room type of one app: the room class with that app's services, and an onAuth that checks the
 * session token and decides the player's scope (room-scope.ts) before any room is found or created.
 */
export function crashRoom(services: CrashRoomServices) {
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
 * The rules are the pure machine of crash-machine.ts; this room is its adapter. It feeds the machine
 * events stamped with `services.clock.now()` (messages, joins and leaves, the answers of the store and
 * the ledger, the wake-ups it asked for), carries out the effects (store and ledger calls, wake-ups
 * set with `services.clock.setTimeout`, balance events, the together feed, the lease) and copies the
 * machine's view into the schema state after each step.
 *
 * Money moves only through the ledger: a bet is debited when placed, a cash-out is a guarded update
 * (the bet still in, the round running, the multiplier at or below the crash point), and the bust marks
 * the rest lost. A round left open by a process that stopped is settled by the restart rule
 * (CrashStore.recover), and so is the room's own open round when it is disposed.
 */
export abstract class CrashRoom extends Room<{ state: CrashState; client: CrashClient }> {
  protected abstract readonly services: CrashRoomServices;

  private scope = "";
  private machine!: CrashMachineState;
  /** How each player is shown (anonymous: `ANONYMOUS_NAME`, no picture, a stand-in for the id), read on join. */
  private players!: RoomPlayers;
  /** The answers of this round's requests, by request id: a bet's until answered, a cash-out's for repeats. */
  private readonly answers = new Map<string, Promise<unknown>>();
  private wakeTimer: ClockTimer | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  /** Events raised while a step's effects are being carried out wait for it to finish. */
  private readonly queue: CrashEvent[] = [];
  private stepping = false;
  private resolveStopped: () => void = () => undefined;
  private readonly stoppedPromise = new Promise<void>((resolve) => (this.resolveStopped = resolve));

  private get s(): CrashRoomServices {
    return this.services;
  }

  override onCreate(options: unknown): void {
    this.scope = roomScope(crashJoinOptions.parse(options));
    setAutoDispose(this, false);
    this.state = new CrashState();
    this.state.curveRate = this.s.config.crash.curveRate;
    const { bettingMs, bustedMs, tickMs, curveRate, leaseMs } = this.s.config.crash;
    this.machine = initialCrashState({ bettingMs, bustedMs, tickMs, curveRate, leaseMs });
    this.players = new RoomPlayers(
      this,
      this.s,
      playerOf,
      () => this.render(),
      (playerId) => this.machine.bets.some((bet) => bet.playerId === playerId),
    );
    const requests = new RoomRequests<CrashClient>(this, this.s, playerOf);
    requests.handle(CRASH_MESSAGES.bet, {
      schema: crashBetMessage,
      // The same per-player bet budget as the casino room, shared by every connection and process.
      limit: "bet",
      work: (client, msg) => {
        const playerId = playerOf(client);
        const username = this.players.of(client).username;
        const { requestId, amount } = msg;
        return this.request({ type: "betRequested", playerId, username, requestId, amount, autoCashOut: msg.autoCashOut ?? null });
      },
    });
    // A cash-out costs no new budget: it settles a bet already charged, and a refusal would lose the moment.
    requests.handle(CRASH_MESSAGES.cashOut, {
      schema: crashCashOutMessage,
      work: (client, msg) => this.request({ type: "cashOutRequested", playerId: playerOf(client), requestId: msg.requestId }),
    });
    this.dispatch({ type: "start" });
  }

  override async onJoin(client: CrashClient): Promise<void> {
    if (!client.auth) throw new AppError("unauthorized", 401, "Authentication required");
    if (client.auth.scope !== this.scope) throw new AppError("forbidden", 403, "This crash room belongs to another activity instance");
    await this.players.joined(client);
    this.countPlayers();
  }

  override onReconnect(): void {
    this.countPlayers();
  }

  override onLeave(client: CrashClient): void {
    this.players.left(client);
    this.countPlayers();
  }

  override async onDrop(client: CrashClient, code?: number): Promise<void> {
    this.countPlayers();
    // A closed account's connection was ended on purpose: no seat is kept for it.
    if (code === ACCOUNT_CLOSED_CLOSE_CODE) return;
    // Bets live in the database whatever happens to the connection; the seat is kept for a moment.
    await this.allowReconnection(client, 20);
  }

  override async onDispose(): Promise<void> {
    // A round cut short is settled now by the restart rule, rather than after its lease (never busted early).
    this.players.dispose();
    this.dispatch({ type: "stop" });
    await this.stoppedPromise;
  }

  // ── The machine's adapter ───────────────────────────────────────────────────────────────────────

  private countPlayers(): void {
    this.dispatch({ type: "players", count: this.clients.length });
  }

  /** Feeds one event at the clock's time, copies the view into the state and carries out the effects. */
  private dispatch(event: CrashEvent): Map<string, Promise<unknown>> {
    const answers = new Map<string, Promise<unknown>>();
    this.queue.push(event);
    if (this.stepping) return answers;
    this.stepping = true;
    try {
      for (let next = this.queue.shift(); next; next = this.queue.shift()) {
        const { state, effects } = crashStep(this.machine, next, this.s.clock.now());
        this.machine = state;
        this.render();
        for (const effect of effects) {
          const answer = this.perform(effect);
          if (answer && next === event) answers.set(answer.requestId, answer.work);
        }
      }
    } finally {
      this.stepping = false;
    }
    return answers;
  }

  /** A player's request: the machine's answer to it, a refusal or the ledger's answer. */
  private request<T>(event: Extract<CrashEvent, { requestId: string }>): Promise<T> {
    const answer = this.dispatch(event).get(event.requestId);
    return (answer ?? Promise.reject(new Error(`crash room: no answer to ${event.type}`))) as Promise<T>;
  }

  /** Carries out one effect; a request's answer is returned with its request id. */
  private perform(effect: CrashEffect): { requestId: string; work: Promise<unknown> } | undefined {
    const s = this.s;
    switch (effect.kind) {
      case "loadHistory":
        void this.publishChainAndHistory()
          .catch((error) => s.log.error("crash:history", "crash room: loading the history failed", error))
          .then(() => this.dispatch({ type: "historyLoaded" }));
        return;
      case "autoDispose":
        setAutoDispose(this, effect.on);
        return;
      case "openRound":
        this.storeStep(
          s.crash.openRound(this.scope).then((result): CrashEvent => {
            if ("stale" in result) return { type: "stale", roundId: result.stale };
            if ("busy" in result) return { type: "busy" };
            const round = result.opened;
            this.answers.clear();
            Object.assign(this.state, {
              terminatingHash: round.chain.terminatingHash,
              salt: round.chain.salt,
              chainLength: round.chain.length,
            });
            const { roundId, gameNumber, gameHash, crashPoint, rounding } = round;
            return {
              type: "opened",
              round: { roundId, gameNumber, gameHash, crashPoint, rounding, terminatingHash: round.chain.terminatingHash },
            };
          }),
        );
        return;
      case "recoverStale":
        this.storeStep(
          s.crash
            .recover(effect.roundId)
            .then(() => this.publishChainAndHistory())
            .then((): CrashEvent => ({ type: "staleRecovered" })),
        );
        return;
      case "lease":
        this.lease(effect.roundId);
        return;
      case "refuse":
        return { requestId: effect.requestId, work: Promise.reject(new AppError(effect.code, 409, effect.message)) };
      case "placeBet": {
        const { playerId, requestId, roundId, amount, autoCashOut } = effect;
        const work = s.ledger.placeCrashBet(playerId, requestId, { roundId, amount, autoCashOut });
        work.then(
          (answer) => this.dispatch({ type: "betPlaced", roundId, requestId, answer }),
          () => this.dispatch({ type: "betFailed", roundId, requestId }),
        );
        return { requestId, work };
      }
      case "betAccepted":
        // The player's other connections hear the balance from the ledger's announcement of the commit.
        countCrashStep("bet");
        return;
      case "startRun":
        this.storeStep(
          s.crash.startRunning(effect.roundId).then((ok): CrashEvent => ({ type: "runStarted", roundId: effect.roundId, ok })),
        );
        return;
      case "cashOut": {
        const { playerId, requestId, roundId, at, by } = effect;
        const work = s.ledger.cashOutCrashBet(playerId, requestId, { roundId, cashedOutAt: at, by });
        work.then(
          (answer) => this.dispatch({ type: "cashOutSettled", roundId, playerId, requestId, answer }),
          () => this.dispatch({ type: "cashOutFailed", roundId, playerId, requestId }),
        );
        this.answers.set(requestId, work);
        return { requestId, work };
      }
      case "replay": {
        const work = this.answers.get(effect.requestId);
        return work ? { requestId: effect.requestId, work } : undefined;
      }
      case "cashedOut":
        countCrashStep("cashout");
        return;
      case "bust":
        this.storeStep(s.crash.bust(effect.roundId).then((ok): CrashEvent => ({ type: "bustDone", roundId: effect.roundId, ok })));
        return;
      case "revealed": {
        const { round } = effect;
        // Each bet of the round feeds its player's activity instance (and the big wins), now that the game
        // hash is public: the same rows as a solo round's.
        effect.bets.forEach((bet, place) =>
          s.together.crashSettled(bet.playerId, {
            stake: bet.amount,
            payout: bet.payout,
            cashedOutAt: bet.cashedOutAt,
            gameHash: round.gameHash,
            gameNumber: round.gameNumber,
            place,
          }),
        );
        this.addHistory({ ...round, phase: "busted" });
        return;
      }
      case "reload":
        this.storeStep(
          s.crash.bets(effect.roundId).then(async (bets): Promise<CrashEvent> => {
            await this.publishChainAndHistory();
            return { type: "reloaded", roundId: effect.roundId, bets };
          }),
        );
        return;
      case "recover":
        void s.crash
          .recover(effect.roundId, true)
          .catch((error) => s.log.error("crash:recover", "crash room: settling the open round failed", error))
          .then(() => this.dispatch({ type: "recovered" }));
        return;
      case "roundFailed":
        s.log.error("crash:round", "crash room: round failed", effect.error);
        return;
      case "wake":
        this.wakeAt(effect.at);
        return;
      case "stopped":
        this.resolveStopped();
        return;
    }
  }

  /**
   * Sets the machine's one wake-up. A system timer may fire a millisecond before its time by the wall
   * clock: the machine then has nothing due and asks for the same wake-up again (no new effect), so the
   * timer that fired is set again for what is left.
   */
  private wakeAt(at: number | null): void {
    const clock = this.s.clock;
    clock.clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    if (at === null) return;
    this.wakeTimer = clock.setTimeout(
      () => {
        this.wakeTimer = undefined;
        this.dispatch({ type: "time" });
        if (this.wakeTimer === undefined && this.machine.wakeAt !== null) this.wakeAt(this.machine.wakeAt);
      },
      Math.max(0, at - clock.now()),
    );
  }

  /** A store step of the round: its result is the next event, its failure the `failed` event. */
  private storeStep(work: Promise<CrashEvent>): void {
    void work.then(
      (event) => this.dispatch(event),
      (error: unknown) => this.dispatch({ type: "failed", error }),
    );
  }

  /**
   * Renews the open round's lease in the database. The lease is measured by the database's clock, so it
   * is renewed on the process's real timers, whatever clock the rounds run on.
   */
  private lease(roundId: string | null): void {
    clearInterval(this.leaseTimer);
    this.leaseTimer = undefined;
    if (roundId === null) return;
    const lease = this.s.config.crash.leaseMs;
    this.leaseTimer = setInterval(() => void this.s.crash.renewLease(roundId).catch(() => undefined), Math.max(100, Math.floor(lease / 3)));
  }

  /**
   * Copies the machine's view of the round and its bets into the schema state (only what changed). A
   * bet is keyed and shown by its player's id as the room shows it: a stand-in for an anonymous player.
   */
  private render(): void {
    const view = this.machine.view;
    const state = this.state as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(view)) if (state[key] !== value) state[key] = value;
    const bets = this.machine.bets.map((bet) => ({
      bet,
      // A bet recovered after a restart, of a player not in the room since, is shown as it was placed.
      shown: this.players.shown(bet.playerId, { username: bet.username, anonymous: bet.username === ANONYMOUS_NAME }),
    }));
    const keys = new Set(bets.map((b) => b.shown.playerId));
    for (const key of [...this.state.bets.keys()]) if (!keys.has(key)) this.state.bets.delete(key);
    // A player gone from the room whose bet went with its round is forgotten.
    this.players.forgetGone();
    for (const { bet, shown: who } of bets) {
      let shown = this.state.bets.get(who.playerId);
      if (!shown) {
        shown = new CrashBetView();
        this.state.bets.set(who.playerId, shown);
      }
      const fields = {
        playerId: who.playerId,
        username: who.username,
        avatarUrl: who.avatarUrl ?? "",
        face: who.face ?? "",
        amount: bet.amount,
        autoCashOut: bet.autoCashOut ?? 0,
        status: bet.status,
        cashedOutAt: bet.cashedOutAt,
        payout: bet.payout,
      };
      const target = shown as unknown as Record<string, unknown>;
      for (const [key, value] of Object.entries(fields)) if (target[key] !== value) target[key] = value;
    }
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
}
