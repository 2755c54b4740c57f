import { sha256Hex } from "@casino/common";
import type { SeatSeed } from "@casino/common/games/shoe";
import type { BlackjackAction } from "@casino/common/games/blackjack/engine";
import { deal, newShoe, type TableState } from "@casino/common/games/blackjack-table";
import {
  initialMachine,
  snapshotOf,
  step,
  wakeAt,
  type MachineEffect,
  type MachineEvent,
  type MachineSettings,
  type RecordedAction,
  type SeatSettlement,
  type Step,
  type TableMachine,
} from "../../src/table/round-machine";

export const SETTINGS: MachineSettings = { bettingMs: 10_000, turnMs: 15_000, settledMs: 3_000, reconnectSeconds: 30, leaseMs: 15_000 };

/** A player's client seed at the driver's table (what the store would read from their active seed pair). */
export const clientSeedOf = (playerId: string) => `client-${playerId}`;

/**
 * A seed whose first round, dealt to `bets` (seat → amount) with the seats' client seeds, satisfies
 * `wanted`: the tests choose the cards they need (an ace up, a pair, no blackjack) this way.
 */
export function seedWhere(seats: Record<number, string>, bets: Record<number, number>, wanted: (dealt: TableState) => boolean): string {
  const seeds: SeatSeed[] = Object.entries(seats).map(([seat, playerId]) => ({ seat: Number(seat), clientSeed: clientSeedOf(playerId) }));
  for (let i = 0; i < 100_000; i++) {
    const seed = sha256Hex(`machine-test-${i}`);
    const dealt = deal(
      newShoe(seed, seeds, 2),
      Object.entries(bets).map(([seat, amount]) => ({ seat: Number(seat), amount })),
    );
    if (wanted(dealt)) return seed;
  }
  throw new Error("no seed deals that");
}

/**
 * The round machine with a store and a ledger that answer at once, in memory: every effect the machine
 * asks for is logged, and the store's and the ledger's effects are answered (unless `hold` names their
 * type: then they wait in `held` for the test to answer). Time moves only by `advance`.
 */
export class TableDriver {
  machine: TableMachine = initialMachine();
  now = Date.UTC(2026, 0, 1);
  /** Every effect the machine asked for, in order. */
  readonly effects: MachineEffect[] = [];
  /** Effects of the types in `hold`, not answered yet. */
  readonly held: MachineEffect[] = [];
  readonly hold = new Set<MachineEffect["type"]>();
  /** The shoes' server seeds, in the order the shoes are opened (then generated). */
  readonly seeds: string[] = [];
  /** What the store holds: bets by round, each round's record, each settled seat. */
  readonly bets: { roundId: string; betId: string; seat: number; playerId: string; amount: number }[] = [];
  readonly records = new Map<string, RecordedAction[]>();
  readonly settlements: { roundId: string; betId: string; seat: number; settlement: SeatSettlement }[] = [];
  readonly finished: string[] = [];
  private shoes = 0;
  private readonly queue: MachineEffect[] = [];
  private answering = false;

  constructor(readonly settings: MachineSettings = SETTINGS) {
    this.send({ type: "start" });
  }

  /** Feeds an event now; the machine is unchanged when it refuses. */
  send(event: MachineEvent): Step {
    const result = step(this.machine, event, this.now, this.settings);
    if (result.refusal || result.busy) return result;
    this.machine = result.machine;
    for (const effect of result.effects) {
      this.effects.push(effect);
      if (this.hold.has(effect.type)) this.held.push(effect);
      else this.queue.push(effect);
    }
    // Answers come after the step's effects are all carried out (as the room's, which come later still).
    if (!this.answering) {
      this.answering = true;
      try {
        for (let next = this.queue.shift(); next; next = this.queue.shift()) this.answer(next);
      } finally {
        this.answering = false;
      }
    }
    return result;
  }

  /** Moves time on by `ms`, ticking the machine at each wake-up it asked for on the way (as the room's clock does). */
  advance(ms: number): void {
    const end = this.now + ms;
    for (let at = wakeAt(this.machine); at !== null && at <= end; at = wakeAt(this.machine)) {
      this.now = Math.max(this.now, at);
      this.send({ type: "tick" });
    }
    this.now = end;
    this.send({ type: "tick" });
  }

  /** Answers a held effect (the oldest of its type) as the store or the ledger would. */
  release(type: MachineEffect["type"]): MachineEffect {
    const index = this.held.findIndex((e) => e.type === type);
    if (index < 0) throw new Error(`no ${type} held`);
    const [effect] = this.held.splice(index, 1);
    this.queue.push(effect!);
    this.send({ type: "tick" });
    return effect!;
  }

  /** The effects of one type asked for since `from` (an index into `effects`). */
  since(from: number, type?: MachineEffect["type"]): MachineEffect[] {
    return this.effects.slice(from).filter((e) => !type || e.type === type);
  }

  sit(playerId: string, seat: number, sessionId = `session-${playerId}`) {
    return this.send({ type: "sit", playerId, sessionId, seat, username: playerId, avatarUrl: null, face: null });
  }
  bet(playerId: string, amount: number) {
    return this.send({ type: "bet", playerId, requestId: `bet-${playerId}-${this.now}`, amount });
  }
  ready(playerId: string) {
    return this.send({ type: "ready", playerId });
  }
  act(playerId: string, action: BlackjackAction) {
    return this.send({ type: "act", playerId, requestId: `act-${playerId}-${this.now}`, action });
  }

  get snapshot() {
    return snapshotOf(this.machine, { tableId: "public:test", instanceId: null, watchers: 0 }, this.settings);
  }
  /** The seat to act as the snapshot shows it. */
  get toAct() {
    return this.snapshot.toAct;
  }
  seat(seatNo: number) {
    return this.machine.seats.find((s) => s.seat === seatNo);
  }

  private answer(effect: MachineEffect): void {
    switch (effect.type) {
      case "loadPrevious":
        return void this.send({ type: "previousLoaded", previousShoe: null });
      case "openShoe": {
        const serverSeed = this.seeds.shift() ?? sha256Hex(`driver-shoe-${this.shoes}`);
        const id = `shoe-${++this.shoes}`;
        return void this.send({
          type: "shoeOpened",
          shoe: { id, serverSeed, serverSeedHash: sha256Hex(serverSeed), seats: null, rounding: 2 },
        });
      }
      case "openRound": {
        const roundId = `${effect.shoeId}:${effect.round}`;
        if (!this.records.has(roundId)) this.records.set(roundId, []);
        return void this.send({ type: "roundOpened", roundId });
      }
      case "placeBet": {
        if (this.bets.some((b) => b.roundId === effect.roundId && b.playerId === effect.playerId))
          return void this.send({ type: "betFailed" });
        const betId = `bet-${this.bets.length + 1}`;
        this.bets.push({ roundId: effect.roundId, betId, seat: effect.seat, playerId: effect.playerId, amount: effect.amount });
        return void this.send({ type: "betPlaced", playerId: effect.playerId, roundId: effect.roundId, amount: effect.amount });
      }
      case "deal": {
        const bets = this.bets.filter((b) => b.roundId === effect.roundId).sort((a, b) => a.seat - b.seat);
        const bySeat = new Map(effect.seated.map((s) => [s.seat, s.playerId]));
        for (const b of bets) bySeat.set(b.seat, b.playerId);
        const seats = [...bySeat.entries()]
          .sort(([a], [b]) => a - b)
          .map(([seat, playerId]) => ({ seat, clientSeed: clientSeedOf(playerId) }));
        return void this.send({
          type: "dealt",
          bets: bets.map(({ betId, seat, playerId, amount }) => ({ betId, seat, playerId, amount })),
          seats,
        });
      }
      case "recordAct":
        this.records.get(effect.roundId)!.push({ seat: effect.seat, action: effect.action });
        return void this.send({ type: "actRecorded", index: effect.index, replayed: false });
      case "recordDefault": {
        const record = this.records.get(effect.roundId)!;
        const ok = record.length === effect.index;
        if (ok) record.push(effect.entry);
        return void this.send({ type: "defaultRecorded", index: effect.index, ok });
      }
      case "settle":
        for (const s of effect.seats)
          this.settlements.push({ roundId: effect.roundId, betId: s.betId, seat: s.seat, settlement: s.settlement });
        return void this.send({ type: "roundClosed" });
      case "finishShoe":
        this.finished.push(effect.shoeId);
        return void this.send({ type: "shoeFinished" });
      case "abandon":
        return void this.send({ type: "abandoned", previousShoe: null });
      default:
        return;
    }
  }
}
