import { Room, type AuthContext, type Client } from "@colyseus/core";
import {
  ACCOUNT_CLOSED_CLOSE_CODE,
  ANONYMOUS_NAME,
  TABLE_MESSAGES,
  tableActMessage,
  tableBetMessage,
  tableJoinOptions,
  tableLeaveMessage,
  tableReadyMessage,
  tableSitMessage,
  type TableAnswer,
  type TableMessageType,
  type TableSnapshot,
} from "@casino/common";
import { RoomPlayers } from "../core/rooms/room-players";
import { AppError } from "../platform/errors";
import type { CoreServices } from "../core/services";
import type { TableLedger, TableStore } from "./table-store";
import type { ClockTimer } from "../platform/clock";
import { initialMachine, seatsLeft, snapshotOf, step, type MachineEffect, type MachineEvent, type TableMachine } from "./round-machine";
import { PUBLIC_SCOPE, instanceScope } from "../core/rooms/room-scope";
import { tableAuth, type TableAuth } from "./table-auth";
import { TableRoomState, setTableState, type TableMetadata } from "./table-state";
import { RoomRequests } from "../core/rooms/room-messages";
import { setAutoDispose } from "../core/rooms/auto-dispose";
import { SeatReservations } from "./seat-reservations";

type TableClient = Client<{ auth: TableAuth }>;

const playerOf = (client: TableClient): string => client.auth!.playerId;

/** The services the room uses. */
export type TableRoomServices = Pick<
  CoreServices,
  "clock" | "config" | "db" | "instances" | "lifecycle" | "log" | "players" | "roomLimits" | "standIns" | "tokens"
> & { table: TableStore; ledger: TableLedger };

/**
 * The table room type of one app: the room class with that app's services, and an onAuth that checks the
 * session token and decides the player's scope (room-scope.ts) before any room is found or created.
 */
export function tableRoom(services: TableRoomServices) {
  return class AppTableRoom extends TableRoom {
    protected override readonly services = services;

    static override async onAuth(token: string, options: unknown, _context: AuthContext): Promise<TableAuth> {
      return tableAuth(services, token, options, tableJoinOptions);
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
 * The room is the adapter of the table's round machine (server/src/table/round-machine.ts): it turns
 * messages, connections, the clock's wake-ups and the answers of the store and the ledger into the
 * machine's events, each with `services.clock.now()`, and carries out the effects the machine returns
 * (the ledger, the store, the lease, the wake-up timer on `services.clock`), then publishes the snapshot.
 * Every bet and action is written to the database, in order, before the machine applies it, so a round
 * can always be replayed from its record: by `verifyShoe`, and by the restart rule when the process
 * running it stops (TableStore.recover). Money moves only through the ledger.
 */
export abstract class TableRoom extends Room<{ state: TableRoomState; client: TableClient }> {
  protected abstract readonly services: TableRoomServices;

  private scope = "";
  private instanceId: string | null = null;
  private tableId = "";
  private machine: TableMachine = initialMachine();
  /** The machine's wake-up, on the services' clock. */
  private wakeTimer: ClockTimer | undefined;
  /** The lease on the shoe is renewed on the process's own timer: it is the database's time, not the table's. */
  private leaseTimer: NodeJS.Timeout | undefined;
  /** Effects being carried out (the room waits for them when it closes). */
  private readonly running = new Set<Promise<unknown>>();
  /** The players' bets being written. */
  private readonly pendingBets = new Set<Promise<unknown>>();
  /** Called at each change of the machine: a player's action waiting for the one being written decides again. */
  private readonly recordedWaiters = new Set<() => void>();
  /** Colyseus's wait for each dropped connection, by session: ended when the machine says the grace ran out. */
  private readonly graces = new Map<string, { reject: (reason?: unknown) => void }>();
  private lastSnapshot = "";
  private lastListing = "";
  /** How the players here are shown (anonymous: `ANONYMOUS_NAME`, no picture, a stand-in for the id), read on join. */
  private players!: RoomPlayers;
  /** Seats held for the connections matched here to sit (public tables): counted in the listing's `freeSeat`. */
  private reservations!: SeatReservations;

  private get s(): TableRoomServices {
    return this.services;
  }

  override onCreate(options: unknown): void {
    const parsed = tableJoinOptions.parse(options);
    this.instanceId = parsed.instanceId;
    this.scope = parsed.instanceId === null ? PUBLIC_SCOPE : instanceScope(parsed.instanceId);
    // An instance has one table; each public table is a table of its own.
    this.tableId = parsed.instanceId === null ? `public:${this.roomId}` : this.scope;
    setAutoDispose(this, false);
    setTableState(this);
    this.reservations = new SeatReservations(
      this,
      this.s.clock,
      () => seatsLeft(this.machine),
      () => this.publish(),
    );
    this.players = new RoomPlayers(
      this,
      this.s,
      playerOf,
      () => this.publish(),
      (playerId) => this.machine.seats.some((s) => s.playerId === playerId),
    );
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
      work: async (client, msg) => {
        const profile = this.players.of(client);
        const seat = this.decide({
          type: "sit",
          playerId: playerOf(client),
          sessionId: client.sessionId,
          seat: msg.seat,
          username: profile.username,
          avatarUrl: profile.avatarUrl,
          face: profile.face,
        }).seat;
        // Seated: the seat counts as taken, and none is held for this connection any more.
        if (this.reservations.release(client.sessionId)) this.publish();
        return answer(TABLE_MESSAGES.sit, msg.requestId, seat ?? null);
      },
    });
    requests.handle(TABLE_MESSAGES.leave, {
      schema: tableLeaveMessage,
      work: async (client, msg) =>
        answer(TABLE_MESSAGES.leave, msg.requestId, this.decide({ type: "stand", playerId: playerOf(client) }).seat ?? null),
    });
    requests.handle(TABLE_MESSAGES.ready, {
      schema: tableReadyMessage,
      work: async (client, msg) =>
        answer(TABLE_MESSAGES.ready, msg.requestId, this.decide({ type: "ready", playerId: playerOf(client) }).seat ?? null),
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
        const done = await this.act(playerOf(client), msg.requestId, msg.action);
        return answer(TABLE_MESSAGES.act, msg.requestId, done.seat, done.stake, done.balance);
      },
    });
    this.feed({ type: "start" });
  }

  override async onJoin(client: TableClient): Promise<void> {
    if (!client.auth) throw new AppError("unauthorized", 401, "Authentication required");
    if (client.auth.scope !== this.scope) throw new AppError("forbidden", 403, "This table belongs to another activity instance");
    await this.players.joined(client);
    // A player who comes back on a new connection (after the grace) finds their seat again, and holds no other.
    this.feed({ type: "join", playerId: client.auth.playerId, sessionId: client.sessionId });
    if (this.machine.seats.some((s) => s.playerId === client.auth!.playerId) && this.reservations.release(client.sessionId)) this.publish();
  }

  override onDrop(client: TableClient, code?: number): void {
    // A closed account's connection was ended on purpose: no seat is kept for it (onLeave follows).
    if (code === ACCOUNT_CLOSED_CLOSE_CODE) return;
    // The connection may come back within the grace, which the machine times on the clock: it asks the
    // room to end the wait (endGrace) when the grace runs out.
    const reconnection = this.allowReconnection(client, "manual");
    reconnection.catch(() => undefined);
    if (typeof reconnection.reject === "function") this.graces.set(client.sessionId, { reject: (reason) => reconnection.reject(reason) });
    void reconnection.then(
      () => this.graces.delete(client.sessionId),
      () => this.graces.delete(client.sessionId),
    );
    this.feed({ type: "drop", playerId: playerOf(client), sessionId: client.sessionId });
  }

  override onReconnect(client: TableClient): void {
    this.feed({ type: "reconnect", playerId: playerOf(client), sessionId: client.sessionId });
  }

  override onLeave(client: TableClient): void {
    this.reservations.release(client.sessionId);
    this.feed({ type: "leave", playerId: playerOf(client), sessionId: client.sessionId });
    // Their profile goes too, or when their seat goes (a seat in a round is left after it).
    this.players.left(client);
  }

  override async onDispose(): Promise<void> {
    this.players.dispose();
    this.reservations.stop();
    this.feed({ type: "stop" });
    this.s.clock.clearTimeout(this.wakeTimer);
    this.wakeTimer = undefined;
    clearInterval(this.leaseTimer);
    this.leaseTimer = undefined;
    // Work under way ends first (a deal, a settlement, a player's bet or action being written).
    while (this.running.size > 0 || this.pendingBets.size > 0) await Promise.allSettled([...this.running, ...this.pendingBets]);
    const shoe = this.machine.shoe;
    if (shoe) {
      // A table closing settles its open round now (every seat still to act stood for) and reveals its shoe.
      await this.s.table
        .recover(shoe.id, true)
        .catch((error) => this.s.log.error("table:recover", "table room: settling the open round failed", error));
    }
  }

  // ── The machine ──────────────────────────────────────────────────────────────────────────────────

  /** Feeds an event at the clock's time, carries out its effects and publishes the table. */
  private feed(event: MachineEvent) {
    const result = step(this.machine, event, this.s.clock.now(), this.s.config.table);
    if (result.refusal || result.busy) return result;
    this.machine = result.machine;
    for (const effect of result.effects) this.carryOut(effect);
    this.publish();
    // A player's action waiting for the one being written decides again.
    for (const wake of [...this.recordedWaiters]) wake();
    return result;
  }

  /** A player's message: refused with the machine's reason, or done (the seat it concerned). */
  private decide(event: MachineEvent) {
    const result = this.feed(event);
    if (result.refusal) throw new AppError(result.refusal.code, result.refusal.status, result.refusal.message);
    return result;
  }

  /** Runs an effect's work in the background; its answer (or its failure) is fed back to the machine. */
  private track(work: () => Promise<MachineEvent | null>, failure: (error: unknown) => MachineEvent | null): void {
    const promise = work().then(
      (answer) => {
        if (answer) this.feed(answer);
      },
      (error) => {
        const next = failure(error);
        if (next) this.feed(next);
      },
    );
    this.running.add(promise);
    void promise.finally(() => this.running.delete(promise));
  }

  private failed(what: string) {
    return (error: unknown): MachineEvent => {
      this.s.log.error("table:round", `table room: ${what} failed`, error);
      return { type: "failed", reason: `${what}: ${error instanceof Error ? error.message : String(error)}` };
    };
  }

  private carryOut(effect: MachineEffect): void {
    const store = this.s.table;
    switch (effect.type) {
      case "wake":
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
        return;
      case "loadPrevious":
        return this.track(
          async () => ({ type: "previousLoaded", previousShoe: await store.lastFinished(this.tableId).catch(() => null) }),
          () => ({ type: "previousLoaded", previousShoe: null }),
        );
      case "openShoe":
        return this.track(async () => {
          const result = await store.openShoe(this.tableId);
          if ("stale" in result) return { type: "shoeStale", shoeId: result.stale };
          if ("busy" in result) return { type: "shoeBusy" };
          return { type: "shoeOpened", shoe: result.opened };
        }, this.failed("opening a shoe"));
      case "recoverStale":
        return this.track(async () => {
          await store.recover(effect.shoeId);
          return { type: "staleRecovered", previousShoe: await store.lastFinished(this.tableId) };
        }, this.failed("settling a stale shoe"));
      case "holdLease": {
        clearInterval(this.leaseTimer);
        const lease = this.s.config.table.leaseMs;
        this.leaseTimer = setInterval(
          () =>
            void store.renewLease(effect.shoeId).then(
              (held) => {
                if (!held) this.feed({ type: "leaseLost", shoeId: effect.shoeId });
              },
              () => undefined,
            ),
          Math.max(100, Math.floor(lease / 3)),
        );
        return;
      }
      case "releaseLease":
        clearInterval(this.leaseTimer);
        this.leaseTimer = undefined;
        return;
      case "openRound":
        return this.track(
          async () => ({ type: "roundOpened", roundId: await store.openRound(effect.shoeId, effect.round) }),
          this.failed("opening a round"),
        );
      case "deal":
        return this.track(async () => {
          // Bets still being written are waited for (the store's deal waits for them too).
          await Promise.allSettled([...this.pendingBets]);
          const { bets, seats } = await store.deal(effect.roundId, effect.shoeId, effect.seated);
          return {
            type: "dealt",
            bets: bets.map((b) => ({ betId: b.betId, seat: b.seat, playerId: b.playerId, amount: b.amount })),
            seats,
          };
        }, this.failed("the deal"));
      case "recordDefault":
        return this.track(
          async () => ({
            type: "defaultRecorded",
            index: effect.index,
            ok: await store.appendAction(effect.roundId, effect.index, effect.entry),
          }),
          this.failed("recording a default action"),
        );
      case "settle":
        return this.track(async () => {
          // The seats are settled together (each its own money request, so they share a batch rather
          // than queue one behind the other); each commit announces the new balance and the seat's row
          // of the live feeds. The round closes once every seat is settled.
          const settled = await Promise.allSettled(
            effect.seats.map((seat) => this.s.ledger.settleTableBet(seat.betId, seat.settlement, "table")),
          );
          const failure = settled.find((r): r is PromiseRejectedResult => r.status === "rejected");
          if (failure) throw failure.reason;
          await store.closeRound(effect.roundId, "table");
          return { type: "roundClosed" };
        }, this.failed("the settlement"));
      case "finishShoe":
        return this.track(async () => {
          await store.finishShoe(effect.shoeId, "cut_card");
          return { type: "shoeFinished" };
        }, this.failed("finishing the shoe"));
      case "abandon":
        // After a failure the room's copy of the round may differ from its record: the round is settled
        // from the record by the restart rule (if this process still holds the shoe) and the shoe finished.
        return this.track(
          async () => {
            await Promise.allSettled([...this.pendingBets]);
            if (!effect.shoeId) return { type: "abandoned", previousShoe: null };
            await store
              .recover(effect.shoeId, true)
              .catch((error) => this.s.log.error("table:recover", "table room: settling the open round failed", error));
            return { type: "abandoned", previousShoe: await store.lastFinished(this.tableId).catch(() => null) };
          },
          () => ({ type: "abandoned", previousShoe: null }),
        );
      case "endGrace":
        // The dropped connection did not come back in time: it leaves for good (onLeave follows).
        this.graces.get(effect.sessionId)?.reject(false);
        this.graces.delete(effect.sessionId);
        return;
      case "placeBet":
      case "recordAct":
        // A player's own money message: carried out by its handler, which answers the player.
        return;
    }
  }

  /** Resolves at the machine's next change (the action being written answered, among others). */
  private recorded(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.recordedWaiters.delete(wake);
        resolve();
      };
      this.recordedWaiters.add(wake);
    });
  }

  // ── Money messages ───────────────────────────────────────────────────────────────────────────────

  private async bet(playerId: string, requestId: string, amount: number) {
    const decided = this.decide({ type: "bet", playerId, requestId, amount });
    const effect = decided.effects.find((e) => e.type === "placeBet")!;
    const work = this.s.ledger.placeTableBet(playerId, requestId, { roundId: effect.roundId, seat: effect.seat, amount });
    this.pendingBets.add(work);
    const done = () => this.pendingBets.delete(work);
    work.then(done, done);
    let placed: Awaited<typeof work>;
    try {
      placed = await work;
    } catch (error) {
      this.feed({ type: "betFailed" });
      throw error;
    }
    this.feed({ type: "betPlaced", playerId, roundId: placed.roundId, amount: placed.amount });
    return placed;
  }

  private async act(playerId: string, requestId: string, action: unknown) {
    let decided = this.decide({ type: "act", playerId, requestId, action });
    // Another action is being written: this one is decided once it is on the table.
    while (decided.busy) {
      await this.recorded();
      decided = this.decide({ type: "act", playerId, requestId, action });
    }
    const effect = decided.effects.find((e) => e.type === "recordAct")!;
    let done: Awaited<ReturnType<TableLedger["tableAction"]>>;
    try {
      done = await this.s.ledger.tableAction(playerId, requestId, {
        roundId: effect.roundId,
        seat: effect.seat,
        index: effect.index,
        action,
        stake: effect.stake,
      });
    } catch (error) {
      this.feed({ type: "actFailed" });
      throw error;
    }
    // A repeated request was answered before: its action is already on the table.
    this.feed({ type: "actRecorded", index: effect.index, replayed: done.replayed === true });
    return done;
  }

  // ── Snapshot ─────────────────────────────────────────────────────────────────────────────────────

  private publish(): void {
    const seatedSessions = new Set(this.machine.seats.map((s) => s.sessionId));
    const watchers = this.clients.filter((c) => !seatedSessions.has(c.sessionId)).length;
    const table = snapshotOf(this.machine, { tableId: this.tableId, instanceId: this.instanceId, watchers }, this.s.config.table);
    // Each seat as its player is shown now: a name changed or anonymous mode switched since they sat shows
    // at once, and an anonymous player's seat carries a stand-in, never the player's id.
    const snapshot = {
      ...table,
      players: table.players.map((p) => {
        const { playerId, username, avatarUrl, face } = this.players.shown(p.playerId, {
          username: p.username,
          anonymous: p.username === ANONYMOUS_NAME,
        });
        return { ...p, playerId, username, avatarUrl, face };
      }),
    };
    // A player gone from the room whose seat went since is forgotten.
    this.players.forgetGone();
    // Nobody seated and nobody here between rounds: Colyseus may close the room.
    setAutoDispose(this, this.machine.seats.length === 0 && this.clients.length === 0 && this.idle());
    this.list(snapshot.players.length, watchers);
    const text = JSON.stringify(snapshot);
    if (text === this.lastSnapshot) return;
    this.lastSnapshot = text;
    // Stamped with the clock only when the table changed (the next patch sends it within a tick).
    this.state.snapshot = JSON.stringify({ ...snapshot, serverTime: this.s.clock.now() } satisfies TableSnapshot);
  }

  /**
   * The room's listing, which the matchmaker filters on. A reservation changes it without changing the
   * table everyone sees (a join is matched before its client connects), so it is decided apart from the
   * snapshot; it is written (to Redis, when scaled out) only when it changes, not on every card.
   */
  private list(seated: number, watchers: number): void {
    const metadata: TableMetadata = { instanceId: this.instanceId, tableId: this.tableId, seated, watchers };
    // Seats taken and seats held for the players matched here to sit (seat-reservations.ts).
    if (this.instanceId === null) metadata.freeSeat = this.reservations.free(seatsLeft(this.machine));
    const listing = JSON.stringify(metadata);
    if (listing === this.lastListing) return;
    this.lastListing = listing;
    void this.setMetadata(metadata as never).catch(() => undefined);
  }

  /** Between rounds: no round is being played or settled. */
  private idle(): boolean {
    const stage = this.machine.stage;
    return stage === "idle" || stage === "backoff" || stage === "starting";
  }
}
