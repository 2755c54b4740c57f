import { ErrorCode, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import {
  ACCOUNT_CLOSED_CLOSE_CODE,
  GameRuleError,
  TABLE_MESSAGES,
  TABLE_SEATS_COUNT,
  tableActMessage,
  tableBetMessage,
  tableJoinOptions,
  tableLeaveMessage,
  tableReadyMessage,
  tableSitMessage,
  type TableAnswer,
  type TableMessageType,
  type TableRoomPhase,
  type TableSeatPlayer,
  type TableSnapshot,
} from "@casino/common";
import {
  act,
  deal,
  dealerTurn,
  defaultAction,
  newShoe,
  nextRound,
  seatToAct,
  shoeFinished,
  tableView,
  type TableState,
} from "@casino/common/games/blackjack-table";
import type { SessionClaims } from "../auth/session";
import { AppError } from "../errors";
import type { Services } from "../services";
import { seatSettlement, type RecordedAction, type ShoeRecord } from "../db/table-store";
import { PUBLIC_SCOPE, activityScopeOf, instanceScope } from "./crash-scope";
import { TableRoomState, setTableState } from "./table-state";
import { RoomRequests } from "./room-messages";

interface TableAuth extends SessionClaims {
  scope: string;
}
type TableClient = Client<{ auth: TableAuth }>;

/** A seat as the room holds it. */
interface Seat {
  seat: number;
  playerId: string;
  username: string;
  avatarUrl: string | null;
  /** The session holding the seat (a reconnection keeps it). */
  sessionId: string;
  connected: boolean;
  ready: boolean;
  bet: number | null;
  inRound: boolean;
  leaving: boolean;
}

const playerOf = (client: TableClient): string => client.auth!.playerId;

/** The metadata the matchmaker filters on (`filterBy(["instanceId", "freeSeat"])`) and `GET /api/tables` lists. */
export interface TableMetadata {
  instanceId: string | null;
  /** Public tables only: whether a seat is free. */
  freeSeat?: boolean;
  tableId: string;
  seated: number;
  watchers: number;
}

/**
 * The table room type of one app: the room class with that app's services, and an onAuth that checks the
 * session token and decides the player's scope (crash-scope.ts) before any room is found or created.
 */
export function tableRoom(services: Services) {
  return class AppTableRoom extends TableRoom {
    protected override readonly services = services;

    static override async onAuth(token: string, options: unknown, _context: AuthContext): Promise<TableAuth> {
      try {
        const claims = await services.tokens.verify(token);
        const parsed = tableJoinOptions.safeParse(options ?? {});
        if (!parsed.success) throw new AppError("invalid_options", 400, parsed.error.issues.map((i) => i.message).join("; "));
        const scope = await activityScopeOf(services.instances, claims, parsed.data.instanceId, "Guests play at the public tables");
        return { ...claims, scope };
      } catch (error) {
        if (error instanceof AppError) throw new ServerError(ErrorCode.AUTH_FAILED, error.message);
        throw error;
      }
    }
  };
}

/**
 * The shared blackjack table: one per Discord activity instance, and public tables for everyone else.
 * Up to 7 seats; everyone else in the room watches. Rounds repeat: a betting window, the deal, insurance
 * and turns seat by seat (each with its timer; a seat whose player is gone or too slow is stood for), the
 * dealer, the settlement, and again, from one shoe until its cut card comes out; then its seed is
 * revealed and a new shoe (committed before its first round) follows.
 *
 * The round runs on the pure engine (common/games/blackjack-table.ts); every bet and action is written
 * to the database, in order, before the room applies it, so a round can always be replayed from its
 * record: by `verifyShoe`, and by the restart rule when the process running it stops (TableStore.recover).
 * Money moves only through the ledger.
 */
export abstract class TableRoom extends Room<{ state: TableRoomState; client: TableClient }> {
  protected abstract readonly services: Services;

  private scope = "";
  private instanceId: string | null = null;
  private tableId = "";
  private readonly seats = new Map<number, Seat>();
  private phase: TableRoomPhase = "waiting";
  /** Bets are taken (the betting window is open and not closing). */
  private bettingOpen = false;
  private deadline: number | null = null;
  private shoe: ShoeRecord | null = null;
  private engine: TableState | null = null;
  private roundId: string | null = null;
  private roundActions: RecordedAction[] = [];
  private previousShoe: TableSnapshot["previousShoe"] = null;
  private readonly pendingBets = new Set<Promise<unknown>>();
  private readonly pokers = new Set<() => void>();
  private exclusiveTail: Promise<unknown> = Promise.resolve();
  private leaseTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private looping: Promise<void> = Promise.resolve();
  private lastSnapshot = "";
  private lastListing = "";
  /** The dealt round is on the table (from the deal to the end of the settled pause). */
  private roundLive = false;
  /** The lease on the shoe was lost: the round in play is another process's to settle. */
  private shoeLost = false;
  /** The names and avatars of the players here, as the table shows them. */
  private readonly profiles = new Map<string, { username: string; avatarUrl: string | null }>();

  private get s(): Services {
    return this.services;
  }

  override onCreate(options: unknown): void {
    const parsed = tableJoinOptions.parse(options);
    this.instanceId = parsed.instanceId;
    this.scope = parsed.instanceId === null ? PUBLIC_SCOPE : instanceScope(parsed.instanceId);
    // An instance has one table; each public table is a table of its own.
    this.tableId = parsed.instanceId === null ? `public:${this.roomId}` : this.scope;
    this.autoDispose = false;
    setTableState(this);
    const requests = new RoomRequests<TableClient>(this, this.s, playerOf);
    const answer = (
      type: TableMessageType,
      requestId: string,
      seat: number | null,
      stake = 0,
      balance: number | null = null,
    ): TableAnswer => ({
      requestId,
      type,
      seat,
      stake,
      balance,
    });
    requests.handle(TABLE_MESSAGES.sit, {
      schema: tableSitMessage,
      work: async (client, msg) => answer(TABLE_MESSAGES.sit, msg.requestId, this.sit(client, msg.seat)),
    });
    requests.handle(TABLE_MESSAGES.leave, {
      schema: tableLeaveMessage,
      work: async (client, msg) => answer(TABLE_MESSAGES.leave, msg.requestId, this.stand(playerOf(client))),
    });
    requests.handle(TABLE_MESSAGES.ready, {
      schema: tableReadyMessage,
      work: async (client, msg) => answer(TABLE_MESSAGES.ready, msg.requestId, this.ready(playerOf(client))),
    });
    requests.handle(TABLE_MESSAGES.bet, {
      schema: tableBetMessage,
      limit: "bet",
      work: async (client, msg) => {
        const placed = await this.bet(playerOf(client), msg.requestId, msg.amount);
        return answer(TABLE_MESSAGES.bet, msg.requestId, placed.seat, placed.amount, placed.balance);
      },
    });
    requests.handle(TABLE_MESSAGES.act, {
      schema: tableActMessage,
      work: async (client, msg) => {
        const done = await this.exclusive(() => this.act(playerOf(client), msg.requestId, msg.action));
        return answer(TABLE_MESSAGES.act, msg.requestId, done.seat, done.stake, done.balance);
      },
    });
    this.publish();
    this.looping = this.loop();
  }

  override async onJoin(client: TableClient): Promise<void> {
    if (!client.auth) throw new AppError("unauthorized", 401, "Authentication required");
    if (client.auth.scope !== this.scope) throw new AppError("forbidden", 403, "This table belongs to another activity instance");
    const player = await this.s.players.get(client.auth.playerId);
    this.profiles.set(
      player.id,
      player.anonymousMode ? { username: "Anonymous", avatarUrl: null } : { username: player.username, avatarUrl: player.avatarUrl },
    );
    // A player who comes back on a new connection (after the grace) finds their seat again.
    const held = this.seatOf(client.auth.playerId);
    if (held) Object.assign(held, { sessionId: client.sessionId, connected: true });
    this.publish();
  }

  override onDrop(client: TableClient, code?: number): void {
    // A closed account's connection was ended on purpose: no seat is kept for it (onLeave follows).
    if (code === ACCOUNT_CLOSED_CLOSE_CODE) return;
    const held = this.seatOf(playerOf(client));
    if (held && held.sessionId === client.sessionId) held.connected = false;
    this.poke();
    this.publish();
    // The seat is kept for the grace period; the player is stood for meanwhile when the turn comes.
    this.allowReconnection(client, this.s.config.table.reconnectSeconds).catch(() => undefined);
  }

  override onReconnect(client: TableClient): void {
    const held = this.seatOf(playerOf(client));
    if (held && held.sessionId === client.sessionId) held.connected = true;
    this.publish();
  }

  override onLeave(client: TableClient): void {
    const held = this.seatOf(playerOf(client));
    if (held && held.sessionId === client.sessionId) {
      held.connected = false;
      this.release(held);
    }
    this.poke();
    this.publish();
  }

  override async onDispose(): Promise<void> {
    this.stop();
    await this.looping;
    const shoe = this.shoe;
    if (shoe) {
      // A table closing settles its open round now (every seat still to act stood for) and reveals its shoe.
      await Promise.allSettled([...this.pendingBets]);
      await this.exclusive(async () => undefined);
      await this.s.table
        .recover(shoe.id, true)
        .catch((error) => this.s.log.error("table:recover", "table room: settling the open round failed", error));
    }
  }

  // ── Seats ────────────────────────────────────────────────────────────────────────────────────────

  private seatOf(playerId: string): Seat | undefined {
    for (const seat of this.seats.values()) if (seat.playerId === playerId) return seat;
    return undefined;
  }

  private sit(client: TableClient, seatNo: number): number {
    const playerId = playerOf(client);
    const held = this.seatOf(playerId);
    if (held) throw new AppError("already_seated", 409, `You are already at seat ${held.seat}`);
    if (this.seats.has(seatNo)) throw new AppError("seat_taken", 409, `Seat ${seatNo} is taken`);
    const profile = this.profiles.get(playerId);
    this.seats.set(seatNo, {
      seat: seatNo,
      playerId,
      username: profile?.username ?? "Player",
      avatarUrl: profile?.avatarUrl ?? null,
      sessionId: client.sessionId,
      connected: true,
      ready: false,
      bet: null,
      inRound: false,
      leaving: false,
    });
    this.publish();
    this.poke();
    return seatNo;
  }

  private stand(playerId: string): number {
    const held = this.seatOf(playerId);
    if (!held) throw new AppError("not_seated", 409, "You have no seat at this table");
    this.release(held);
    this.poke();
    this.publish();
    return held.seat;
  }

  /** Frees the seat now, or once the round it has a bet in is over (it is stood for meanwhile). */
  private release(seat: Seat): void {
    if (seat.bet !== null || seat.inRound) seat.leaving = true;
    else this.seats.delete(seat.seat);
  }

  private ready(playerId: string): number {
    const held = this.seatOf(playerId);
    if (!held) throw new AppError("not_seated", 409, "You have no seat at this table");
    if (this.phase !== "betting" || !this.bettingOpen) throw new AppError("betting_closed", 409, "Bets are closed for this round");
    held.ready = true;
    this.poke();
    this.publish();
    return held.seat;
  }

  // ── Money messages ───────────────────────────────────────────────────────────────────────────────

  private async bet(playerId: string, requestId: string, amount: number) {
    const held = this.seatOf(playerId);
    if (!held || held.leaving) throw new AppError("not_seated", 409, "Take a seat to bet");
    const roundId = this.roundId;
    if (!roundId || this.phase !== "betting" || !this.bettingOpen)
      throw new AppError("betting_closed", 409, "Bets are closed for this round");
    const work = this.s.ledger.placeTableBet(playerId, requestId, { roundId, seat: held.seat, amount });
    this.pendingBets.add(work);
    const done = () => this.pendingBets.delete(work);
    work.then(done, done);
    const placed = await work;
    if (placed.roundId === this.roundId) {
      held.bet = placed.amount;
      if (!placed.replayed)
        this.s.events.publish(playerId, { type: "balance", balance: placed.balance, delta: -amount, reason: "blackjack-table" });
      this.poke();
      this.publish();
    }
    return placed;
  }

  private async act(playerId: string, requestId: string, action: unknown) {
    const held = this.seatOf(playerId);
    if (!held) throw new AppError("not_seated", 409, "You have no seat at this table");
    const engine = this.engine;
    const roundId = this.roundId;
    const toAct = engine ? seatToAct(engine) : null;
    if (!engine || !roundId || toAct === null) throw new AppError("no_turn", 409, "No seat is to act now");
    if (toAct !== held.seat || !held.inRound) throw new AppError("not_your_turn", 409, `It is seat ${toAct}'s turn`);
    let step: ReturnType<typeof act>;
    try {
      step = act(engine, held.seat, action);
    } catch (error) {
      if (error instanceof GameRuleError) throw new AppError(error.code, 409, error.message);
      throw error;
    }
    const index = this.roundActions.length;
    const done = await this.s.ledger.tableAction(playerId, requestId, { roundId, seat: held.seat, index, action, stake: step.stake });
    // A repeated request was answered before: its action is already on the table.
    if (done.replayed) return done;
    this.engine = step.state;
    this.roundActions.push({ seat: held.seat, action });
    if (step.stake > 0)
      this.s.events.publish(playerId, { type: "balance", balance: done.balance, delta: -step.stake, reason: "blackjack-table" });
    this.poke();
    this.publish();
    return done;
  }

  // ── The round loop ───────────────────────────────────────────────────────────────────────────────

  private async loop(): Promise<void> {
    this.previousShoe = await this.s.table.lastFinished(this.tableId).catch(() => null);
    while (!this.stopped) {
      try {
        if (this.seats.size === 0) {
          // Nobody seated: between rounds, Colyseus may close the room once nobody is here either.
          this.setPhase("waiting");
          this.autoDispose = this.clients.length === 0;
          await this.waitUntil(Date.now() + 1_000, () => this.seats.size > 0);
          continue;
        }
        this.autoDispose = false;
        if (this.shoeLost) {
          this.shoeLost = false;
          throw new Error("the table's shoe was taken over by another process");
        }
        if (!this.shoe && !(await this.openShoe())) continue;
        await this.playRound();
      } catch (error) {
        if (this.stopped) return;
        this.s.log.error("table:round", "table room: round failed", error);
        await this.abandonShoe();
        await this.sleep(1_000);
      }
    }
  }

  /**
   * After a failure the room's copy of the round may differ from its record: the round is settled from
   * the record by the restart rule (if this process still holds the shoe), the shoe finished, and the
   * next round starts a new shoe.
   */
  private async abandonShoe(): Promise<void> {
    const shoe = this.shoe;
    await Promise.allSettled([...this.pendingBets]);
    if (shoe) {
      await this.s.table
        .recover(shoe.id, true)
        .catch((error) => this.s.log.error("table:recover", "table room: settling the open round failed", error));
      this.previousShoe = await this.s.table.lastFinished(this.tableId).catch(() => this.previousShoe);
    }
    clearInterval(this.leaseTimer);
    this.leaseTimer = undefined;
    Object.assign(this, {
      shoe: null,
      engine: null,
      roundId: null,
      roundActions: [],
      roundLive: false,
      deadline: null,
      bettingOpen: false,
    });
    for (const seat of [...this.seats.values()]) {
      if (seat.leaving) this.seats.delete(seat.seat);
      else Object.assign(seat, { inRound: false, bet: null, ready: false });
    }
    this.setPhase("waiting");
  }

  /** A new shoe for this table, once no other process deals one. */
  private async openShoe(): Promise<boolean> {
    const result = await this.s.table.openShoe(this.tableId);
    if ("stale" in result) {
      await this.s.table.recover(result.stale);
      this.previousShoe = await this.s.table.lastFinished(this.tableId);
      return false;
    }
    if ("busy" in result) {
      this.setPhase("waiting");
      await this.sleep(Math.ceil(this.s.config.table.leaseMs / 2));
      return false;
    }
    this.shoe = result.opened;
    this.engine = null;
    this.shoeLost = false;
    const lease = this.s.config.table.leaseMs;
    const shoeId = this.shoe.id;
    clearInterval(this.leaseTimer);
    this.leaseTimer = setInterval(
      () =>
        void this.s.table.renewLease(shoeId).then(
          (held) => {
            // Another process took the shoe over (this one stalled past its lease): stop dealing from it.
            if (!held && this.shoe?.id === shoeId) this.shoeLost = true;
          },
          () => undefined,
        ),
      Math.max(100, Math.floor(lease / 3)),
    );
    this.publish();
    return true;
  }

  private async playRound(): Promise<void> {
    const shoe = this.shoe!;
    const roundNo = (this.engine?.round ?? 0) + 1;
    this.roundId = await this.s.table.openRound(shoe.id, roundNo);
    this.roundActions = [];
    // The betting window.
    for (const seat of this.seats.values()) Object.assign(seat, { ready: false, bet: null, inRound: false });
    this.bettingOpen = true;
    this.phase = "betting";
    this.deadline = Date.now() + this.s.config.table.bettingMs;
    this.publish();
    // Everyone seated has bet and is ready, or nobody is seated any more (the table may then close).
    await this.waitUntil(this.deadline, () => this.allReady() || this.seats.size === 0);
    this.bettingOpen = false;
    await Promise.allSettled([...this.pendingBets]);
    if (this.stopped) return;
    const seated = [...this.seats.values()].filter((s) => !s.leaving).map((s) => ({ seat: s.seat, playerId: s.playerId }));
    const { bets, seats } = await this.s.table.deal(this.roundId, shoe.id, seated);
    if (bets.length === 0) {
      // Nobody bet: the window opens again (the same round), once someone is seated.
      for (const seat of [...this.seats.values()]) if (seat.leaving) this.seats.delete(seat.seat);
      this.deadline = null;
      this.setPhase("waiting");
      return;
    }
    if (!shoe.seats) shoe.seats = seats;
    await this.exclusive(async () => {
      const before = this.engine ? nextRound(this.engine) : newShoe(shoe.serverSeed, shoe.seats!, shoe.rounding);
      this.engine = deal(
        before,
        bets.map((b) => ({ seat: b.seat, amount: b.amount })),
      );
      for (const b of bets) {
        const seat = this.seats.get(b.seat);
        if (seat && seat.playerId === b.playerId) Object.assign(seat, { inRound: true, bet: b.amount });
      }
      this.roundLive = true;
    });
    this.deadline = null;
    this.publish();

    // Insurance and turns, seat by seat.
    while (!this.stopped && !this.shoeLost && this.engine && seatToAct(this.engine) !== null) await this.turn();
    // Stopped before the dealer: the round stays open for onDispose (or the next process) to settle.
    if (this.stopped) return;
    if (this.shoeLost) throw new Error("the table's shoe was taken over by another process");

    await this.exclusive(async () => {
      if (this.engine!.phase === "dealer") this.engine = dealerTurn(this.engine!);
    });
    this.publish();
    const settled = this.engine!;
    for (const b of bets) {
      const seat = seatSettlement(settled, b.seat, this.roundActions, shoe.rounding);
      const result = await this.s.ledger.settleTableBet(b.betId, seat, "table");
      if (!result) continue;
      if (seat.payout > 0)
        this.s.events.publish(result.playerId, { type: "balance", balance: result.balance, delta: seat.payout, reason: "blackjack-table" });
      // The live feeds: the seat's round, named by the shoe's commitment and the round (and the seat).
      this.s.together.tableSettled(result.playerId, {
        stake: seat.staked,
        payout: seat.payout,
        shoeHash: shoe.serverSeedHash,
        round: settled.round,
        seat: b.seat,
      });
    }
    await this.s.table.closeRound(this.roundId, "table");
    this.roundId = null;
    this.deadline = Date.now() + this.s.config.table.settledMs;
    this.setPhase("settled");
    await this.sleep(this.s.config.table.settledMs);

    // Seats given up during the round are freed; everyone plays the next round.
    this.roundLive = false;
    for (const seat of [...this.seats.values()]) {
      if (seat.leaving) this.seats.delete(seat.seat);
      else Object.assign(seat, { inRound: false, bet: null, ready: false });
    }
    if (shoeFinished(settled)) {
      await this.s.table.finishShoe(shoe.id, "cut_card");
      this.previousShoe = { id: shoe.id, serverSeed: shoe.serverSeed, serverSeedHash: shoe.serverSeedHash };
      this.shoe = null;
      this.engine = null;
      clearInterval(this.leaseTimer);
      this.leaseTimer = undefined;
    }
    this.deadline = null;
    this.publish();
  }

  /** The seat to act: its player's action, or the default action when the timer runs out or the player is gone. */
  private async turn(): Promise<void> {
    const engine = this.engine!;
    const seatNo = seatToAct(engine)!;
    const index = this.roundActions.length;
    const present = () => {
      const seat = this.seats.get(seatNo);
      return !!seat && seat.inRound && seat.connected && !seat.leaving;
    };
    if (present()) {
      this.deadline = Date.now() + this.s.config.table.turnMs;
      this.publish();
      await this.waitUntil(this.deadline, () => this.roundActions.length !== index || !present() || this.shoeLost);
    }
    if (this.stopped || this.shoeLost) return;
    await this.exclusive(async () => {
      if (this.roundActions.length !== index || !this.engine || seatToAct(this.engine) !== seatNo) return;
      const fallback = defaultAction(this.engine)!;
      const step = act(this.engine, fallback.seat, fallback.action);
      if (!(await this.s.table.appendAction(this.roundId!, index, fallback))) throw new Error(`round ${this.roundId} record moved on`);
      this.engine = step.state;
      this.roundActions.push(fallback);
    });
    this.deadline = null;
    this.publish();
  }

  private allReady(): boolean {
    const seated = [...this.seats.values()].filter((s) => !s.leaving);
    return seated.length > 0 && seated.every((s) => s.bet !== null && s.ready);
  }

  // ── Snapshot ─────────────────────────────────────────────────────────────────────────────────────

  private setPhase(phase: TableRoomPhase): void {
    this.phase = phase;
    this.publish();
  }

  private publish(): void {
    const engine = this.engine;
    const view = engine && this.roundLive ? tableView(engine) : null;
    const phase: TableRoomPhase = view && engine ? engine.phase : this.phase;
    const players: TableSeatPlayer[] = [...this.seats.values()]
      .sort((a, b) => a.seat - b.seat)
      .map((s) => ({
        seat: s.seat,
        playerId: s.playerId,
        username: s.username,
        avatarUrl: s.avatarUrl,
        ready: s.ready,
        connected: s.connected,
        bet: s.bet,
        inRound: s.inRound,
        leaving: s.leaving,
      }));
    const seatedSessions = new Set([...this.seats.values()].map((s) => s.sessionId));
    const watchers = this.clients.filter((c) => !seatedSessions.has(c.sessionId)).length;
    const snapshot: Omit<TableSnapshot, "serverTime"> = {
      tableId: this.tableId,
      instanceId: this.instanceId,
      phase,
      deadline: this.deadline,
      toAct: engine && view ? seatToAct(engine) : null,
      bettingMs: this.s.config.table.bettingMs,
      turnMs: this.s.config.table.turnMs,
      players,
      watchers,
      view,
      shoe: this.shoe
        ? {
            id: this.shoe.id,
            serverSeedHash: this.shoe.serverSeedHash,
            seats: this.shoe.seats,
            rounds: engine?.round ?? 0,
            rounding: this.shoe.rounding,
          }
        : null,
      previousShoe: this.previousShoe,
    };
    const text = JSON.stringify(snapshot);
    if (text === this.lastSnapshot) return;
    this.lastSnapshot = text;
    // Stamped with the clock only when the table changed (the next patch sends it within a tick).
    this.state.snapshot = JSON.stringify({ ...snapshot, serverTime: Date.now() } satisfies TableSnapshot);
    const metadata: TableMetadata = { instanceId: this.instanceId, tableId: this.tableId, seated: players.length, watchers };
    if (this.instanceId === null) metadata.freeSeat = players.length < TABLE_SEATS_COUNT;
    // The listing is written (to Redis, when scaled out) only when it changes, not on every card.
    const listing = JSON.stringify(metadata);
    if (listing === this.lastListing) return;
    this.lastListing = listing;
    void this.setMetadata(metadata as never).catch(() => undefined);
  }

  // ── Helpers ──────────────────────────────────────────────────────────────────────────────────────

  /** Runs `work` after every other engine change of this room: one change at a time. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.exclusiveTail.then(work);
    this.exclusiveTail = result.catch(() => undefined);
    return result;
  }

  /** Wakes every wait to check its condition again. */
  private poke(): void {
    for (const poke of [...this.pokers]) poke();
  }

  /** Resolves at `deadline`, when `done()` holds (checked at each poke), or when the room stops. */
  private waitUntil(deadline: number, done: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.pokers.delete(check);
        resolve();
      };
      const check = () => {
        if (this.stopped || done() || Date.now() >= deadline) finish();
      };
      const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
      this.pokers.add(check);
      check();
    });
  }

  private sleep(ms: number): Promise<void> {
    return this.waitUntil(Date.now() + ms, () => false);
  }

  private stop(): void {
    this.stopped = true;
    clearInterval(this.leaseTimer);
    this.poke();
  }
}
