import { Room, type AuthContext, type Client } from "@colyseus/core";
import { ACCOUNT_CLOSED_CLOSE_CODE, ANONYMOUS_NAME, sha256Hex } from "@casino/common";
import type { SeatSeed } from "@casino/common/games/shoe";
import {
  afterHand,
  comeBack,
  dropped,
  expireGraces,
  handStart,
  handView,
  holdemDeck,
  nextGraceEnd,
  planHand,
  reconnected,
  sitDown,
  sitOut,
  startHand,
  step,
  type HandEffect,
  type HandEvent,
  type HandStart,
  type HoldemHand,
  type TableSeat,
} from "@casino/common/games/holdem/index";
import {
  HOLDEM_HAND_PAUSE_MS,
  HOLDEM_MESSAGES,
  HOLDEM_PUSH,
  HOLDEM_TABLE_CONFIG,
  HOLDEM_TABLE_SEATS,
  holdemActMessage,
  holdemComeBackMessage,
  holdemJoinOptions,
  holdemLeaveMessage,
  holdemSitMessage,
  holdemSitOutMessage,
  type HoldemAnswer,
  type HoldemMessageType,
  type HoldemPrivateView,
  type HoldemRevealedHand,
  type HoldemTablePhase,
  type HoldemTableSnapshot,
} from "@casino/common/holdem-table";
import type { ClockTimer } from "../platform/clock";
import { RoomPlayers } from "../core/rooms/room-players";
import { AppError } from "../platform/errors";
import type { CoreServices } from "../core/services";
import type { HoldemStore } from "./holdem-store";
import type { HoldemMoney } from "./holdem-money";
import { PUBLIC_SCOPE, instanceScope } from "../core/rooms/room-scope";
import { RoomRequests } from "../core/rooms/room-messages";
import { tableAuth, type TableAuth } from "../table/table-auth";
import { TableRoomState, setTableState, type TableMetadata } from "../table/table-state";
import { setAutoDispose } from "../core/rooms/auto-dispose";
import { SeatReservations } from "../table/seat-reservations";

type HoldemClient = Client<{ auth: TableAuth }>;

const playerOf = (client: HoldemClient): string => client.auth!.playerId;
const config = HOLDEM_TABLE_CONFIG;

/** The room's side of a seat: its row in the database, the connection that holds it, and a leave asked for. */
interface SeatHolder {
  seatId: string;
  sessionId: string | null;
  username: string;
  avatarUrl: string | null;
  face: string | null;
  /** The player asked to leave (or the grace ran out): the stack goes back once the seat is out of the hand. */
  leaving: boolean;
}

/** The hand on the table with what its record needs: its row, its seed and the seats' seeds. */
interface HandInPlay {
  handId: string;
  serverSeed: string;
  serverSeedHash: string;
  seeds: SeatSeed[];
  start: Omit<HandStart, "deck">;
  hand: HoldemHand;
}

/** The services the room uses. */
export type HoldemRoomServices = Pick<
  CoreServices,
  "clock" | "config" | "db" | "instances" | "lifecycle" | "log" | "players" | "roomLimits" | "standIns" | "tokens"
> & { holdem: HoldemStore; ledger: { holdem: HoldemMoney } };

/** The Hold'em room type of one app: the room class with that app's services and the shared tables' onAuth. */
export function holdemRoom(services: HoldemRoomServices) {
  return class AppHoldemRoom extends HoldemRoom {
    protected override readonly services = services;

    static override async onAuth(token: string, options: unknown, _context: AuthContext): Promise<TableAuth> {
      return tableAuth(services, token, options, holdemJoinOptions);
    }
  };
}

/**
 * The Hold'em table (docs/architecture/holdem.md, "The room"): one per Discord activity instance and
 * public tables for everyone else (the blackjack table's rule), 2 to 8 players, everyone else watching.
 * Players play each other; the house takes nothing.
 *
 * The room is a thin adapter over the pure core (`@casino/common/games/holdem`): between hands it keeps
 * the seats (`table.ts`: planHand, sitDown, sitOut, dropped…), and during a hand it feeds the hand
 * machine its events (a player's action, the timer, a connection dropping or coming back) with
 * `services.clock.now()` and carries out the effects (the `wake` timer on `services.clock`, the result).
 * Money moves only through the ledger (`holdem/holdem-money.ts`): a buy-in seats the player, a hand's
 * result is written once it is over (the stacks in the database never change during a hand), a leave
 * cashes the stack out. Each hand is dealt from its own deck (`holdemDeck`): its server seed's hash is on
 * the table before the hand, the seats' client seeds are mixed in, and the seed is revealed after it.
 * The state is the same for everyone and never holds a hole card before the showdown; each seated
 * player is sent their own cards and choices (`HOLDEM_PUSH.private`).
 */
export abstract class HoldemRoom extends Room<{ state: TableRoomState; client: HoldemClient }> {
  protected abstract readonly services: HoldemRoomServices;

  private instanceId: string | null = null;
  private scope = "";
  /** The table's row (`holdem_tables.id`). */
  private tableId = "";
  private seats: TableSeat[] = [];
  private readonly holders = new Map<number, SeatHolder>();
  /** Seats being bought in: held for the buyer until the ledger answers. */
  private readonly buying = new Set<number>();
  /** Seats held for the connections matched here to sit (public tables): counted in the listing's `freeSeat`. */
  private reservations!: SeatReservations;
  private button: number | null = null;
  private handNumber = 0;
  private current: HandInPlay | null = null;
  private phase: HoldemTablePhase = "waiting";
  /** A hand is being recorded before its deal. */
  private dealing = false;
  private nextServerSeed = "";
  private previousHand: HoldemRevealedHand | null = null;
  private nextHandAt: number | null = null;
  private wakeTimer: ClockTimer | undefined;
  private graceTimer: ClockTimer | undefined;
  private pauseTimer: ClockTimer | undefined;
  /** The lease is renewed on the process's own timer: it is the database's time, not the table's. */
  private leaseTimer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<unknown>>();
  /** Colyseus's wait for each dropped connection, by session: ended when the seat's grace runs out. */
  private readonly graces = new Map<string, { reject: (reason?: unknown) => void }>();
  /** How the players here are shown (anonymous: `ANONYMOUS_NAME`, no picture, a stand-in for the id), read on join. */
  private players!: RoomPlayers;
  /** What each seated connection was last sent privately, so it is sent again only when it changes. */
  private readonly sentPrivate = new Map<string, string>();
  private lastSnapshot = "";
  private lastListing = "";
  private closing = false;

  private get s(): HoldemRoomServices {
    return this.services;
  }

  override async onCreate(options: unknown): Promise<void> {
    const parsed = holdemJoinOptions.parse(options);
    this.instanceId = parsed.instanceId;
    this.scope = parsed.instanceId === null ? PUBLIC_SCOPE : instanceScope(parsed.instanceId);
    setAutoDispose(this, false);
    setTableState(this);
    this.players = new RoomPlayers(
      this,
      this.s,
      playerOf,
      () => this.publish(),
      (playerId) =>
        this.seats.some((s) => s.playerId === playerId) ||
        !!this.current?.hand.seats.some((s) => s.playerId === playerId) ||
        !!this.previousHand?.start.seats.some((s) => s.playerId === playerId),
    );
    this.reservations = new SeatReservations(
      this,
      this.s.clock,
      () => this.seatsLeft(),
      () => this.publish(),
    );
    this.tableId = await this.s.holdem.openTable(this.scope);
    this.nextServerSeed = this.s.holdem.newServerSeed();
    this.leaseTimer = setInterval(
      () =>
        void this.s.holdem.renewLease(this.tableId).then(
          (held) => {
            if (!held && !this.closing) {
              this.s.log.error("holdem:lease", "holdem room: the table's lease was lost; closing the room");
              void this.disconnect();
            }
          },
          () => undefined,
        ),
      Math.max(100, Math.floor(this.s.config.table.leaseMs / 3)),
    );
    const requests = new RoomRequests<HoldemClient>(this, this.s, playerOf);
    const answer = (type: HoldemMessageType, seat: number | null, stack: number | null = null, balance: number | null = null) =>
      ({ type, seat, stack, balance }) satisfies Omit<HoldemAnswer, "requestId">;
    requests.handle(HOLDEM_MESSAGES.sit, {
      schema: holdemSitMessage,
      limit: "bet",
      work: async (client, msg) => {
        const done = await this.sit(client, msg.requestId, msg.seat, msg.buyIn);
        return answer(HOLDEM_MESSAGES.sit, done.seat, done.stack, done.balance);
      },
    });
    requests.handle(HOLDEM_MESSAGES.act, {
      schema: holdemActMessage,
      work: async (client, msg) => {
        const seat = this.seatOf(playerOf(client));
        if (!this.current || this.phase !== "playing") throw new AppError("no_hand", 409, "No hand is being played");
        this.feed({ type: "act", seat, action: msg.action }, true);
        return answer(HOLDEM_MESSAGES.act, seat);
      },
    });
    requests.handle(HOLDEM_MESSAGES.sitOut, {
      schema: holdemSitOutMessage,
      work: async (client) => {
        const seat = this.seatOf(playerOf(client));
        this.updateSeat(seat, sitOut);
        this.publish();
        return answer(HOLDEM_MESSAGES.sitOut, seat);
      },
    });
    requests.handle(HOLDEM_MESSAGES.comeBack, {
      schema: holdemComeBackMessage,
      work: async (client, msg) => {
        const seat = this.seatOf(playerOf(client));
        const held = this.seats.find((s) => s.seat === seat)!;
        if (held.status !== "sittingOut") throw new AppError("not_sitting_out", 409, "You are not sitting out");
        if (held.stack === 0) throw new AppError("no_chips", 409, "You have no chips: leave the seat and buy in again");
        this.updateSeat(seat, (s) => comeBack(s, msg.postNow === true));
        this.dealIfReady();
        this.publish();
        return answer(HOLDEM_MESSAGES.comeBack, seat);
      },
    });
    requests.handle(HOLDEM_MESSAGES.leave, {
      schema: holdemLeaveMessage,
      work: async (client) => {
        const seat = this.seatOf(playerOf(client));
        const cashedOut = await this.leave(seat);
        return answer(HOLDEM_MESSAGES.leave, seat, cashedOut?.amount ?? null, cashedOut?.balance ?? null);
      },
    });
    this.publish();
  }

  override async onJoin(client: HoldemClient): Promise<void> {
    if (!client.auth) throw new AppError("unauthorized", 401, "Authentication required");
    if (client.auth.scope !== this.scope) throw new AppError("forbidden", 403, "This table belongs to another activity instance");
    await this.players.joined(client);
    // A seated player back on a new connection takes the seat's connection over.
    const seat = this.seats.find((s) => s.playerId === client.auth!.playerId);
    if (seat) {
      const holder = this.holders.get(seat.seat)!;
      if (holder.sessionId) this.graces.get(holder.sessionId)?.reject(false);
      holder.sessionId = client.sessionId;
      this.backOnline(seat.seat);
      // The player has a seat here already: none is held for this connection.
      this.reservations.release(client.sessionId);
    }
    this.publish();
  }

  override onDrop(client: HoldemClient, code?: number): void {
    // A closed account's connection was ended on purpose: no seat is kept for it (onLeave follows).
    if (code === ACCOUNT_CLOSED_CLOSE_CODE) return;
    // The room is closing (a shutdown ends every connection with a code that is not a consented leave,
    // so Colyseus calls onDrop): the seat is not dropped from the hand, which would play the hand on by
    // checking or folding for it; onDispose makes the hand void by the restart rule instead.
    if (this.closing) return;
    const seat = this.seats.find((s) => s.playerId === playerOf(client));
    if (!seat || this.holders.get(seat.seat)?.sessionId !== client.sessionId) return;
    // The connection may come back within the seat's grace, which the room times on the clock.
    const reconnection = this.allowReconnection(client, "manual");
    reconnection.catch(() => undefined);
    if (typeof reconnection.reject === "function") this.graces.set(client.sessionId, { reject: (reason) => reconnection.reject(reason) });
    void reconnection.then(
      () => this.graces.delete(client.sessionId),
      () => this.graces.delete(client.sessionId),
    );
    this.updateSeat(seat.seat, (s) => dropped(s, this.s.clock.now(), config));
    if (this.inHand(seat.seat)) this.feed({ type: "drop", seat: seat.seat });
    this.armGraceTimer();
    this.publish();
  }

  override onReconnect(client: HoldemClient): void {
    const seat = this.seats.find((s) => s.playerId === playerOf(client));
    this.sentPrivate.delete(client.sessionId);
    if (seat && this.holders.get(seat.seat)?.sessionId === client.sessionId) this.backOnline(seat.seat);
    this.publish();
  }

  /**
   * The room is closing (a shutdown, a lost lease): its connections are ended without leaving their
   * seats, so the hand being played is not played on for them; onDispose applies the restart rule.
   */
  override disconnect(closeCode?: number): Promise<unknown> {
    this.closing = true;
    return super.disconnect(closeCode);
  }

  override onLeave(client: HoldemClient): void {
    this.sentPrivate.delete(client.sessionId);
    this.reservations.release(client.sessionId);
    if (this.closing) return;
    // The player's profile goes with their last connection, or once the table shows nothing of theirs.
    this.players.left(client);
    const seat = this.seats.find((s) => s.playerId === playerOf(client));
    // The player left the room (or the grace ran out): the seat goes, its stack back to the balance.
    if (seat && this.holders.get(seat.seat)?.sessionId === client.sessionId) {
      this.holders.get(seat.seat)!.sessionId = null;
      void this.leave(seat.seat).catch(() => undefined);
    }
    this.publish();
  }

  override async onDispose(): Promise<void> {
    this.closing = true;
    this.players?.dispose();
    this.reservations.stop();
    for (const timer of [this.wakeTimer, this.graceTimer, this.pauseTimer]) this.s.clock.clearTimeout(timer);
    clearInterval(this.leaseTimer);
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
    // A table closing: an unfinished hand is void (every bet back in its stack) and every seat cashed out.
    if (this.tableId)
      await this.s.holdem
        .closeTable(this.tableId, "closed")
        .catch((error) => this.s.log.error("holdem:close", "holdem room: closing the table failed", error));
  }

  // ── Seats ────────────────────────────────────────────────────────────────────────────────────────

  /** Seats neither held nor being bought in. */
  private seatsLeft(): number {
    return HOLDEM_TABLE_SEATS - this.seats.length - this.buying.size;
  }

  private seatOf(playerId: string): number {
    const seat = this.seats.find((s) => s.playerId === playerId);
    if (!seat) throw new AppError("not_seated", 409, "You have no seat at this table");
    return seat.seat;
  }

  private updateSeat(seat: number, change: (s: TableSeat) => TableSeat): void {
    this.seats = this.seats.map((s) => (s.seat === seat ? change(s) : s));
  }

  private inHand(seat: number): boolean {
    const hand = this.current?.hand;
    return !!hand && hand.phase !== "complete" && hand.seats.some((s) => s.seat === seat);
  }

  private backOnline(seat: number): void {
    const before = this.seats.find((s) => s.seat === seat);
    if (!before || before.connected) return;
    this.updateSeat(seat, reconnected);
    // A seat that is leaving (its player left, or its grace ran out) stays away in the hand: played for
    // at once, as any leave, until it is cashed out after the hand. Otherwise the table would wait for it.
    if (this.inHand(seat) && !this.holders.get(seat)?.leaving) this.feed({ type: "reconnect", seat });
    this.armGraceTimer();
  }

  /** Sits the player down with a buy-in through the ledger; the next hand deals them in by the table's rules. */
  private async sit(client: HoldemClient, requestId: string, seat: number, buyIn: number) {
    const playerId = playerOf(client);
    const own = this.seats.find((s) => s.playerId === playerId);
    if (own) throw new AppError("already_seated", 409, `You already sit at seat ${own.seat}`);
    if (this.closing) throw new AppError("table_closed", 409, "This table is closing");
    if (this.buying.has(seat) || this.holders.has(seat)) throw new AppError("seat_taken", 409, `Seat ${seat} is taken`);
    // As the player is shown now, while they are here (refused when gone): a connection gone during the
    // buy-in takes its profile with it, and the seat then shows them as recorded here (anonymous or not).
    const { username, avatarUrl, face } = this.players.of(client);
    this.buying.add(seat);
    // The seat being bought is counted as taken: a seat held for this connection is not held any more.
    this.reservations.release(client.sessionId);
    let placed;
    try {
      placed = await this.s.ledger.holdem.buyIn(playerId, requestId, { tableId: this.tableId, seat, amount: buyIn });
    } catch (error) {
      // Refused (the balance, the limits): the seat is free again, and listed so.
      this.buying.delete(seat);
      this.publish();
      throw error;
    }
    this.buying.delete(seat);
    if (placed.replayed) {
      // The same request again: its seat stands, or it was left since (a new request sits down again).
      if (this.holders.get(placed.seat)?.seatId === placed.seatId) return placed;
      throw new AppError("request_answered", 409, "That buy-in was made before and its seat left since: sit down with a new request");
    }
    this.seats = [...this.seats, sitDown(config, placed.seat, playerId, placed.stack)].sort((a, b) => a.seat - b.seat);
    this.holders.set(placed.seat, { seatId: placed.seatId, sessionId: client.sessionId, username, avatarUrl, face, leaving: false });
    if (!this.clients.some((c) => c.sessionId === client.sessionId)) {
      // The connection went away while its buy-in was being written (a tab closed): its leave found no
      // seat then, so the seat leaves now, as any seat whose connection left the room, its stack back to
      // the balance. Otherwise it would be held for a connection that is gone and never dropped.
      this.holders.get(placed.seat)!.sessionId = null;
      await this.leave(placed.seat);
      return placed;
    }
    this.dealIfReady();
    this.publish();
    return placed;
  }

  /**
   * The seat leaves: its stack goes back to the balance now, or, when the seat is in the hand being
   * played, once that hand is over (meanwhile the hand checks or folds for it).
   */
  private async leave(seat: number) {
    const holder = this.holders.get(seat);
    if (!holder) return null;
    holder.leaving = true;
    this.updateSeat(seat, sitOut);
    if (this.inHand(seat) || this.phase === "settling" || this.dealing) {
      if (this.inHand(seat)) this.feed({ type: "drop", seat });
      this.publish();
      return null;
    }
    return this.cashOut(seat);
  }

  private async cashOut(seat: number) {
    const holder = this.holders.get(seat);
    if (!holder) return null;
    const work = this.s.ledger.holdem.cashOut(holder.seatId);
    this.track(work);
    const done = await work;
    if (this.holders.get(seat) === holder) {
      this.holders.delete(seat);
      this.seats = this.seats.filter((s) => s.seat !== seat);
    }
    this.publish();
    return done;
  }

  private armGraceTimer(): void {
    this.s.clock.clearTimeout(this.graceTimer);
    const at = nextGraceEnd(this.seats);
    this.graceTimer =
      at === null
        ? undefined
        : this.s.clock.setTimeout(
            () => {
              this.graceTimer = undefined;
              const { seats, expired } = expireGraces(this.seats, this.s.clock.now());
              this.seats = seats;
              for (const seat of expired) {
                // The dropped connection did not come back in time: its wait ends and the seat leaves (onLeave).
                const sessionId = this.holders.get(seat)?.sessionId;
                const grace = sessionId ? this.graces.get(sessionId) : undefined;
                if (grace) grace.reject(false);
                else void this.leave(seat).catch(() => undefined);
              }
              this.armGraceTimer();
              this.publish();
            },
            Math.max(0, at - this.s.clock.now()),
          );
  }

  // ── Hands ────────────────────────────────────────────────────────────────────────────────────────

  /** Runs background work; the room waits for it when it closes. */
  private track(work: Promise<unknown>): void {
    const tracked = work.catch(() => undefined);
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  /** The seats a hand may be planned with: every seat not leaving. */
  private playableSeats(): TableSeat[] {
    return this.seats.filter((s) => !this.holders.get(s.seat)?.leaving);
  }

  /**
   * Between hands, once at least two players can play: the next hand is dealt after the pause
   * (`nextHandAt`), which lets more players sit down before a table's first hand.
   */
  private dealIfReady(): void {
    if (this.phase !== "waiting" || this.dealing || this.closing || this.pauseTimer) return;
    if (!planHand(this.playableSeats(), this.button)) return;
    this.nextHandAt = this.s.clock.now() + HOLDEM_HAND_PAUSE_MS;
    this.pauseTimer = this.s.clock.setTimeout(() => {
      this.pauseTimer = undefined;
      this.nextHandAt = null;
      this.startDeal();
    }, HOLDEM_HAND_PAUSE_MS);
  }

  /** Deals the next hand now, if at least two players can still play. */
  private startDeal(): void {
    if (this.phase !== "waiting" || this.dealing || this.closing || !planHand(this.playableSeats(), this.button)) return this.publish();
    this.dealing = true;
    this.track(
      this.deal()
        .catch((error) => {
          this.s.log.error("holdem:deal", "holdem room: dealing a hand failed", error);
          this.pause();
        })
        .finally(() => {
          this.dealing = false;
          this.cashOutLeavers();
          this.publish();
        }),
    );
  }

  private async deal(): Promise<void> {
    const clientSeeds = await this.s.holdem.clientSeeds(this.seats.map((s) => s.playerId));
    // Planned after the read, with the seats as they are now.
    const seats = this.playableSeats();
    const plan = planHand(seats, this.button);
    if (!plan || this.closing) return;
    const handNumber = this.handNumber + 1;
    const seeds: SeatSeed[] = plan.dealt.map(({ seat }) => ({
      seat,
      clientSeed: clientSeeds.get(seats.find((s) => s.seat === seat)!.playerId)!,
    }));
    const serverSeed = this.nextServerSeed;
    const start = handStart(plan, seats, config, handNumber, holdemDeck(serverSeed, seeds, handNumber));
    const { deck: _deck, ...record } = start;
    // Numbered before it is recorded: a hand whose record fails leaves a gap, never a number used twice.
    this.handNumber = handNumber;
    const handId = await this.s.holdem.openHand(this.tableId, serverSeed, seeds, record);
    this.button = plan.button;
    // The next hand's seed is committed now: its hash is on the table before that hand is dealt.
    this.nextServerSeed = this.s.holdem.newServerSeed();
    const started = startHand(start, this.s.clock.now());
    this.current = { handId, serverSeed, serverSeedHash: sha256Hex(serverSeed), seeds, start: record, hand: started.hand };
    this.phase = "playing";
    this.nextHandAt = null;
    this.carryOut(started.effects);
    // A seat that left while the hand was being recorded is checked or folded like an away player.
    for (const { seat } of plan.dealt) if (this.holders.get(seat)?.leaving && this.inHand(seat)) this.feed({ type: "drop", seat });
    this.publish();
  }

  /** Feeds the hand an event at the clock's time and carries out its effects; a player's refusal throws. */
  private feed(event: HandEvent, byPlayer = false): void {
    if (!this.current) return;
    const result = step(this.current.hand, event, this.s.clock.now());
    if (result.refusal) {
      if (byPlayer) throw new AppError(result.refusal.code, 409, result.refusal.message);
      return;
    }
    this.current.hand = result.hand;
    this.carryOut(result.effects);
    this.publish();
  }

  private carryOut(effects: readonly HandEffect[]): void {
    for (const effect of effects) {
      if (effect.type === "wake") {
        this.s.clock.clearTimeout(this.wakeTimer);
        this.wakeTimer =
          effect.at === null
            ? undefined
            : this.s.clock.setTimeout(
                () => {
                  this.wakeTimer = undefined;
                  this.feed({ type: "tick" });
                },
                Math.max(0, effect.at - this.s.clock.now()),
              );
      } else if (effect.type === "complete") {
        this.s.clock.clearTimeout(this.wakeTimer);
        this.wakeTimer = undefined;
        this.phase = "settling";
        this.track(this.settle(this.current!));
      }
    }
  }

  /**
   * Writes the finished hand (its record and the new stacks, once) and reveals its seed; the table then
   * pauses on the result. When the write fails the hand is void: the stacks stay as they were before it.
   */
  private async settle(played: HandInPlay): Promise<void> {
    const { hand } = played;
    const result = hand.result!;
    try {
      const stacks = result.stacks.map((s) => ({ seatId: this.holders.get(s.seat)!.seatId, stack: s.stack }));
      const actions = hand.actions.map((a) => ({ seat: a.seat, action: a.action }));
      // Each seat's part: what it put in (its stack before less after, plus what it won back) and what it won.
      const players = played.start.seats.map((s) => {
        const won = result.won.find((w) => w.seat === s.seat)?.amount ?? 0;
        const after = result.stacks.find((x) => x.seat === s.seat)?.stack ?? s.stack;
        return { seat: s.seat, playerId: s.playerId, putIn: s.stack - after + won, won };
      });
      const ref = { handId: played.handId, handNumber: played.start.handNumber, serverSeedHash: played.serverSeedHash };
      const written = await this.s.ledger.holdem.settleHand(ref, stacks, players, { actions: hand.actions, result });
      // Not written: the hand was made void meanwhile (the restart rule took the table), stacks unchanged.
      if (!written) throw new Error(`hand ${played.handId} is no longer being played`);
      this.seats = afterHand(this.seats, hand);
      this.previousHand = {
        handId: played.handId,
        serverSeed: played.serverSeed,
        serverSeedHash: played.serverSeedHash,
        seeds: played.seeds,
        start: played.start,
        actions,
        outcome: { board: result.board, hole: hand.seats.map((s) => ({ seat: s.seat, cards: [...s.hole] })), stacks: result.stacks },
      };
    } catch (error) {
      this.s.log.error("holdem:settle", "holdem room: writing a hand's result failed; the hand is void", error);
      await this.s.holdem.voidHand(played.handId).catch(() => undefined);
      // The table shows no result for a void hand.
      if (this.current === played) this.current = null;
    }
    this.pause();
    this.cashOutLeavers();
  }

  /** Seats that asked to leave (or lost their grace) while they could not yet, cashed out once out of the hand. */
  private cashOutLeavers(): void {
    for (const [seat, holder] of [...this.holders])
      if (holder.leaving && !this.inHand(seat))
        void this.cashOut(seat).catch((error) => this.s.log.error("holdem:cash-out", "holdem room: a cash-out failed", error));
  }

  /** Shows the hand's result until the next hand is dealt. */
  private pause(): void {
    this.phase = "pause";
    this.nextHandAt = this.s.clock.now() + HOLDEM_HAND_PAUSE_MS;
    this.s.clock.clearTimeout(this.pauseTimer);
    this.pauseTimer = this.s.clock.setTimeout(() => {
      this.pauseTimer = undefined;
      this.phase = "waiting";
      this.current = null;
      this.nextHandAt = null;
      this.startDeal();
    }, HOLDEM_HAND_PAUSE_MS);
    this.publish();
  }

  // ── What the table shows ─────────────────────────────────────────────────────────────────────────

  private publish(): void {
    if (!this.state) return;
    const seated = new Set([...this.holders.values()].map((h) => h.sessionId));
    const watchers = this.clients.filter((c) => !seated.has(c.sessionId)).length;
    const current = this.current;
    const snapshot: Omit<HoldemTableSnapshot, "serverTime"> = {
      tableId: this.tableId,
      instanceId: this.instanceId,
      phase: this.phase,
      config,
      seats: this.seats.map((s) => {
        const holder = this.holders.get(s.seat)!;
        // As the player is shown now (a change of name or anonymous mode shows at once): an anonymous
        // player's seat carries a stand-in, never the player's id.
        const { playerId, username, avatarUrl, face } = this.players.shown(s.playerId, {
          username: holder.username,
          anonymous: holder.username === ANONYMOUS_NAME,
        });
        return {
          seat: s.seat,
          playerId,
          username,
          avatarUrl,
          face,
          stack: s.stack,
          status: s.status,
          connected: s.connected,
          graceUntil: s.graceUntil,
          leaving: holder.leaving,
        };
      }),
      watchers,
      hand: current ? this.shownHand(current) : null,
      nextServerSeedHash: this.nextServerSeed ? sha256Hex(this.nextServerSeed) : "",
      previousHand: this.previousHand && {
        ...this.previousHand,
        start: {
          ...this.previousHand.start,
          seats: this.previousHand.start.seats.map((s) => ({ ...s, playerId: this.idShown(s.playerId) })),
        },
      },
      nextHandAt: this.nextHandAt,
    };
    // Nobody seated and nobody here, and no hand being played or written: Colyseus may close the room.
    const between = this.phase === "waiting" || this.phase === "pause";
    setAutoDispose(this, this.seats.length === 0 && this.clients.length === 0 && between && !this.dealing);
    // A player gone from the room whose seat and hands went since is forgotten.
    this.players.forgetGone();
    this.sendPrivateViews();
    const text = JSON.stringify(snapshot);
    if (text !== this.lastSnapshot) {
      this.lastSnapshot = text;
      this.state.snapshot = JSON.stringify({ ...snapshot, serverTime: this.s.clock.now() } satisfies HoldemTableSnapshot);
    }
    const metadata: TableMetadata = { instanceId: this.instanceId, tableId: this.tableId, seated: this.seats.length, watchers };
    // Seats taken, seats being bought and seats held for the players matched here to sit (seat-reservations.ts).
    if (this.instanceId === null) metadata.freeSeat = this.reservations.free(this.seatsLeft());
    const listing = JSON.stringify(metadata);
    if (listing === this.lastListing) return;
    this.lastListing = listing;
    void this.setMetadata(metadata as never).catch(() => undefined);
  }

  /** The public view of the hand, each seat's player by the id the room shows them under. */
  private shownHand(current: HandInPlay): HoldemTableSnapshot["hand"] {
    const view = handView(current.hand, null);
    return {
      ...view,
      seats: view.seats.map((s) => ({ ...s, playerId: this.idShown(s.playerId) })),
      serverSeedHash: current.serverSeedHash,
    };
  }

  /** The id the room shows a player under: a stand-in for an anonymous player (every seated player joined first). */
  private idShown(playerId: string): string {
    return this.players.shown(playerId, { username: "Player", anonymous: false }).playerId;
  }

  /** Each seated connection's own cards and choices, sent only to it and only when they change. */
  private sendPrivateViews(): void {
    for (const [seat, holder] of this.holders) {
      const client = holder.sessionId ? this.clients.find((c) => c.sessionId === holder.sessionId) : undefined;
      if (!client) continue;
      const hand = this.current?.hand;
      const own = hand ? handView(hand, seat) : null;
      const view: HoldemPrivateView = {
        seat,
        handNumber: hand?.handNumber ?? null,
        hole: own?.seats.find((s) => s.seat === seat)?.hole ?? null,
        legal: own?.legal ?? null,
      };
      const text = JSON.stringify(view);
      if (this.sentPrivate.get(client.sessionId) === text) continue;
      this.sentPrivate.set(client.sessionId, text);
      client.send(HOLDEM_PUSH.private, view);
    }
  }
}
