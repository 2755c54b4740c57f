import { CloseCode, Room, ServerError, type Client } from "@colyseus/core";
import {
  ACCOUNT_CLOSED_CLOSE_CODE,
  CASINO_PUSH,
  CLIENT_MESSAGES,
  SERVER_MESSAGES,
  actMessage,
  betMessage,
  casinoJoinOptions,
  dailySpinMessage,
  checkBet,
  describeZodError,
  requireEngine,
  rotateSeedMessage,
  setClientSeedMessage,
  GameRuleError,
  type ActiveSeedView,
  type BetAnswer,
  type OpenRoundMessage,
  type OpenRoundView,
} from "@casino/common";
import type { SessionClaims } from "../core/auth/session";
import { AppError } from "../platform/errors";
import { publicFailure } from "../platform/failures";
import { describeError } from "../platform/log";
import type { CoreServices } from "../core/services";
import type { CasinoLedger } from "./casino-ledger";
import type { Together } from "../together/together";
import type { PlayerEvent } from "../core/events/player-events";
import { CasinoState } from "./casino-state";
import { patchOnlyOnChange } from "../core/rooms/patch-on-change";
import { RoomRequests } from "../core/rooms/room-messages";
import { remindersOf } from "./reminders";
import { openRoundOf } from "../core/players/open-rounds";

type CasinoClient = Client<{ auth: SessionClaims }>;

/** The services the room uses. */
export type CasinoRoomServices = Pick<
  CoreServices,
  "clock" | "config" | "db" | "events" | "lifecycle" | "log" | "players" | "roomLimits" | "seeds" | "tokens"
> & { ledger: CasinoLedger; together: Pick<Together, "forget"> };

/**
 * The casino room type of one app: the room class with that app's services, and an onAuth that checks
 * session tokens with that app's key. A refused token is an HTTP 401 from matchmaking, so a client can
 * tell that its session is gone (not a "seat reservation expired").
 */
export function casinoRoom(services: CasinoRoomServices) {
  return class AppCasinoRoom extends CasinoRoom {
    protected override readonly services = services;

    static override async onAuth(token: string): Promise<SessionClaims> {
      try {
        return await services.tokens.verify(token);
      } catch (error) {
        throw new ServerError(401, error instanceof AppError ? error.message : "Authentication required");
      }
    }
  };
}

/**
 * One room per player connection. It validates every message, asks the ledger, answers with the
 * request id, and mirrors balance and fairness from the player's event channel, which every
 * connection of the player on every process hears (the ledger announces every balance change there,
 * named with the room that asked, which skips its own). Built per app by `casinoRoom(services)`.
 */
export abstract class CasinoRoom extends Room<{ state: CasinoState; client: CasinoClient }> {
  protected abstract readonly services: CasinoRoomServices;
  override maxClients = 1;
  private playerId = "";
  private joined = false;
  private unsubscribe: (() => void) | undefined;
  private reminded = false;
  /** The open round the client was last told of (`CASINO_PUSH.openRound`). */
  private openRound: OpenRoundView | null = null;
  /** Balances heard from the player's other connections, and how many of them the last check covered. */
  private heard = 0;
  private checkedUpTo = 0;
  /** This room's own answers applied (a read of the balance that one overtook is read again). */
  private ownAnswers = 0;
  private checking = false;
  private checkAgain = false;
  private disposed = false;

  override onCreate(): void {
    this.state = new CasinoState();
    this.autoDispose = true;
    // A backstop for floods of any message: past this many a second the connection is dropped.
    this.maxMessagesPerSecond = this.services.config.roomMaxMessagesPerSecond;
    // No timer per room: the state is patched right after each change (`changed()`).
    patchOnlyOnChange(this, this.services.clock);
    const requests = new RoomRequests<CasinoClient>(this, this.services, () => this.playerId);
    requests.handle(CLIENT_MESSAGES.bet, {
      schema: betMessage,
      limit: "bet",
      work: async (_client, msg) => {
        // What the bet alone decides (the game's params, the stake's limits) is refused here, before
        // the bet takes a place in a batch of the ledger.
        try {
          checkBet(requireEngine(msg.game), msg.amount, msg.params);
        } catch (error) {
          if (error instanceof GameRuleError) throw new AppError(error.code, 400, error.message);
          throw error;
        }
        const answer = await this.services.ledger.placeBet(this.playerId, msg.requestId, msg.game, msg.amount, msg.params, this.roomId);
        this.afterRound(answer);
        return answer;
      },
    });
    requests.handle(CLIENT_MESSAGES.act, {
      schema: actMessage,
      limit: "bet",
      work: async (_client, msg) => {
        const answer = await this.services.ledger.act(this.playerId, msg.requestId, msg.action, this.roomId);
        this.afterRound(answer);
        return answer;
      },
    });
    // A new client seed starts a new stream, so it rotates the pair like a plain rotation.
    requests.handle(CLIENT_MESSAGES.setClientSeed, {
      schema: setClientSeedMessage,
      limit: "seed",
      work: (_client, msg) => this.rotateSeeds(msg.requestId, msg.clientSeed, "client-seed"),
    });
    requests.handle(CLIENT_MESSAGES.rotateSeed, {
      schema: rotateSeedMessage,
      limit: "seed",
      work: (_client, msg) => this.rotateSeeds(msg.requestId, msg.clientSeed, "rotate"),
    });
    requests.handle(CLIENT_MESSAGES.dailySpin, {
      schema: dailySpinMessage,
      limit: "spin",
      answer: SERVER_MESSAGES.spin,
      work: async (_client, msg) => {
        const spin = await this.services.ledger.dailySpin(this.playerId, msg.requestId, undefined, this.roomId);
        // A replayed answer carries the balance of its time: it is never applied.
        if (spin.replayed) return spin;
        this.ownAnswer(spin.balance);
        this.state.nonce = Math.max(this.state.nonce, spin.fairness.nonce + 1);
        this.changed();
        return spin;
      },
    });
  }

  override async onJoin(client: CasinoClient, options?: unknown): Promise<void> {
    const s = this.services;
    if (!client.auth) throw new ServerError(401, "Authentication required");
    const joinOptions = casinoJoinOptions.safeParse(options ?? {});
    if (!joinOptions.success) throw new ServerError(400, describeZodError(joinOptions.error));
    const auth = client.auth;
    this.playerId = auth.playerId;
    const clientSeed = joinOptions.data.clientSeed;
    // Every refusal or failure of the join (an archived guest, a database away) reaches the client as
    // a status and a human text, never a driver's message.
    await (async () => {
      await s.players.own(auth, this.playerId); // refuses an archived guest
      // The browser's client seed becomes the first one of a pair that has never been used.
      if (clientSeed && (await s.seeds.adoptFirstClientSeed(this.playerId, clientSeed))) {
        s.events.publish(this.playerId, { type: "fairness", ...(await s.seeds.active(this.playerId)) });
      }
      this.unsubscribe = s.events.subscribe(this.playerId, (event) => this.onPlayerEvent(event));
      await this.refresh(client);
    })().catch((error) => this.joinFailed(error));
    // "Daily Spin Ready!" now (arriving on the event channel), then on the process's shared reminder
    // sweep while connected. The join does not wait for it.
    this.reminded = true;
    void remindersOf(s).join(this.playerId);
    this.joined = true;
  }

  override async onDrop(client: CasinoClient, code?: number): Promise<void> {
    // A join that failed has nothing to come back to, and a connection the server dropped for an error
    // (a message flood) or for a closed account is not kept either: closing it is the point.
    if (!this.joined || code === CloseCode.WITH_ERROR || code === ACCOUNT_CLOSED_CLOSE_CODE) return;
    // A dropped connection keeps its seat for a while; the open round is in the database either way.
    await this.allowReconnection(client, 30);
  }

  override onReconnect(client: CasinoClient): Promise<void> {
    return this.refresh(client).catch((error) => this.joinFailed(error));
  }

  /** A join the player cannot complete: a stable status code and a human text, never the raw error. */
  private joinFailed(error: unknown): never {
    const failure = publicFailure(this.services.log, "room join", error);
    throw new ServerError(failure.status, failure.message);
  }

  override onDispose(): void {
    this.disposed = true;
    this.unsubscribe?.();
    if (this.reminded) remindersOf(this.services).leave(this.playerId);
  }

  /**
   * Balance, fairness and the open round, read from the database (the system of record). The open round
   * goes to the joining client whatever it is (null too), after the state it arrives with.
   */
  private async refresh(client: CasinoClient): Promise<void> {
    const s = this.services;
    const player = await s.players.get(this.playerId);
    const seed = await s.seeds.active(this.playerId);
    this.openRound = await openRoundOf(s.db, this.playerId);
    this.state.balance = player.balance;
    this.state.serverSeedHash = seed.serverSeedHash;
    this.state.clientSeed = seed.clientSeed;
    this.state.nonce = seed.nonce;
    this.state.nextServerSeedHash = seed.nextServerSeedHash;
    this.changed();
    client.send(CASINO_PUSH.openRound, { round: this.openRound } satisfies OpenRoundMessage);
  }

  /** Tells the client of its open round when it is another than the one it was last told of. */
  private setOpenRound(round: OpenRoundView | null): void {
    if (round === null && this.openRound === null) return;
    this.openRound = round;
    this.broadcast(CASINO_PUSH.openRound, { round } satisfies OpenRoundMessage);
  }

  /** Sends the state's changes now (there is no patch timer); nothing is sent when nothing changed. */
  private changed(): void {
    this.broadcastPatch();
  }

  /**
   * An event of the player's channel. Balance and fairness come into the state (the client reads them
   * there); the room that published one set its own state from its answer already. Only a notice is a
   * message of its own.
   */
  private onPlayerEvent(event: PlayerEvent): void {
    if (event.type === "together") return this.services.together.forget(this.playerId);
    if (event.type === "notice") return this.broadcast(SERVER_MESSAGES.notice, event);
    if (event.from === this.roomId) return;
    if (event.type === "balance") {
      this.state.balance = event.balance;
      this.heard++;
      this.checkBalance();
      // The retention sweep settled the player's abandoned round.
      if (event.reason === "round_settled") this.setOpenRound(null);
    } else this.setSeeds(event);
    this.changed();
  }

  /**
   * The balance of this room's own answer. One heard from another connection since the last check may
   * be newer than it (its commit came later, its message first), so the balance is checked then.
   */
  private ownAnswer(balance: number): void {
    this.state.balance = balance;
    this.ownAnswers++;
    if (this.heard > this.checkedUpTo) this.checkBalance();
  }

  /**
   * The player's other connections (another tab, another process, the crash room or a table) are heard
   * in no set order with this room's own answers: a balance heard from another process may be older
   * than the answer applied here. So after each one heard the balance is read again from the database,
   * one read at a time, and a read that an own answer overtook is read again: when the player's
   * connections go quiet, the room shows what the database holds.
   */
  private checkBalance(): void {
    if (this.checking) {
      this.checkAgain = true;
      return;
    }
    this.checking = true;
    void (async () => {
      do {
        this.checkAgain = false;
        this.checkedUpTo = this.heard;
        const own = this.ownAnswers;
        const { balance } = await this.services.players.get(this.playerId);
        if (this.disposed) return;
        if (this.ownAnswers !== own) this.checkAgain = true;
        else if (balance !== this.state.balance) {
          this.state.balance = balance;
          this.changed();
        }
      } while (this.checkAgain);
    })()
      .catch((error: unknown) => this.services.log.warn("balance-check", `a room's balance check failed: ${describeError(error)}`))
      .finally(() => (this.checking = false));
  }

  private setSeeds(seeds: ActiveSeedView): void {
    this.state.serverSeedHash = seeds.serverSeedHash;
    this.state.clientSeed = seeds.clientSeed;
    this.state.nonce = seeds.nonce;
    this.state.nextServerSeedHash = seeds.nextServerSeedHash;
  }

  private async rotateSeeds(requestId: string, clientSeed: string | undefined, kind: "rotate" | "client-seed") {
    const seeds = await this.services.ledger.rotateSeeds(this.playerId, requestId, clientSeed, kind, this.roomId);
    if (seeds.replayed) return seeds;
    this.setSeeds(seeds.active);
    this.changed();
    return seeds;
  }

  /**
   * After a round step: this room's balance, nonce and open round from the answer itself (no re-read on
   * the hot path). The player's other connections, the feeds, the watchers and the metrics hear of it
   * from the ledger's announcement of the commit (announced.ts).
   */
  private afterRound(answer: BetAnswer): void {
    // A replayed answer is the state of its time (balance, open round): nothing of it is applied.
    if (answer.replayed) return;
    this.ownAnswer(answer.balance);
    if (answer.fairness.serverSeedHash === this.state.serverSeedHash) {
      this.state.nonce = Math.max(this.state.nonce, answer.fairness.nonce + 1);
    }
    this.setOpenRound(
      answer.done || answer.roundId === null
        ? null
        : { roundId: answer.roundId, game: answer.game, totalStake: answer.totalStake, totalPayout: answer.totalPayout, view: answer.view },
    );
    this.changed();
  }
}
