import {
  crashStep,
  initialCrashState,
  type CrashEffect,
  type CrashEvent,
  type CrashMachineState,
  type CrashRound,
  type CrashTiming,
} from "../../src/crash/crash-machine";

/** The default timing of the room (config.ts defaults). */
export const TIMING: CrashTiming = { bettingMs: 5_000, bustedMs: 3_000, tickMs: 50, curveRate: 0.00006, leaseMs: 10_000 };

export type EffectOf<K extends CrashEffect["kind"]> = Extract<CrashEffect, { kind: K }>;

export const kinds = (effects: CrashEffect[]) => effects.map((e) => e.kind);

export function ofKind<K extends CrashEffect["kind"]>(effects: CrashEffect[], kind: K): EffectOf<K>[] {
  return effects.filter((e): e is EffectOf<K> => e.kind === kind);
}

let rounds = 0;
export function roundOf(crashPoint: number, roundId = `round-${++rounds}`): CrashRound {
  return { roundId, gameNumber: rounds, gameHash: `hash-${roundId}`, crashPoint, rounding: 2, terminatingHash: "terminating" };
}

/**
 * Drives the pure machine as the room does, with time in the test's hands: each event is stamped with
 * the driver's `now`, and `advanceTo` sends a `time` event at each wake-up the machine asked for on the
 * way, as the room's clock timer would. The answers of the store and the ledger are sent by the test.
 */
export class MachineDriver {
  state: CrashMachineState;
  readonly effects: CrashEffect[] = [];

  constructor(
    timing: CrashTiming = TIMING,
    public now = 1_000_000,
  ) {
    this.state = initialCrashState(timing);
  }

  send(event: CrashEvent): CrashEffect[] {
    const { state, effects } = crashStep(this.state, event, this.now);
    this.state = state;
    this.effects.push(...effects);
    return effects;
  }

  /** Moves time to `at`, waking the machine at each wake-up it asked for up to `at` included. */
  advanceTo(at: number): CrashEffect[] {
    const seen: CrashEffect[] = [];
    for (let guard = 0; this.state.wakeAt !== null && this.state.wakeAt <= at; guard++) {
      if (guard > 1_000_000) throw new Error("the machine keeps asking to be woken at once");
      this.now = Math.max(this.now, this.state.wakeAt);
      seen.push(...this.send({ type: "time" }));
    }
    this.now = Math.max(this.now, at);
    return seen;
  }

  advance(ms: number): CrashEffect[] {
    return this.advanceTo(this.now + ms);
  }

  /** A created room with `players` connections, through its first opening: the store's answer is the test's. */
  static opening(players = 1, timing: CrashTiming = TIMING): MachineDriver {
    const d = new MachineDriver(timing);
    d.send({ type: "start" });
    d.send({ type: "historyLoaded" });
    d.send({ type: "players", count: players });
    return d;
  }

  /** A room in the betting phase of `round`. */
  static betting(round: CrashRound, players = 1, timing: CrashTiming = TIMING): MachineDriver {
    const d = MachineDriver.opening(players, timing);
    d.send({ type: "opened", round });
    return d;
  }

  /** A bet requested and accepted by the ledger (balance as given). */
  bet(playerId: string, amount: number, autoCashOut: number | null = null, balance = 1_000 - amount): CrashEffect[] {
    const requestId = `bet-${playerId}-${this.state.round!.roundId}`;
    const asked = this.send({ type: "betRequested", playerId, username: playerId, requestId, amount, autoCashOut });
    const placed = ofKind(asked, "placeBet")[0];
    if (!placed) return asked;
    return [
      ...asked,
      ...this.send({ type: "betPlaced", roundId: placed.roundId, requestId, answer: { roundId: placed.roundId, balance } }),
    ];
  }

  /** From betting to running: the betting deadline, then the store's answer to the start. */
  run(): CrashEffect[] {
    const closed = this.advanceTo(this.state.bettingEndsAt);
    const start = ofKind(closed, "startRun")[0];
    if (!start) throw new Error(`no start at the end of betting: ${kinds(closed).join(", ")}`);
    return [...closed, ...this.send({ type: "runStarted", roundId: start.roundId, ok: true })];
  }

  /** The ledger pays a cash-out the machine sent. */
  settle(cashOut: EffectOf<"cashOut">, amount: number): CrashEffect[] {
    const payout = Math.floor((amount * cashOut.at) / 100);
    return this.send({
      type: "cashOutSettled",
      roundId: cashOut.roundId,
      playerId: cashOut.playerId,
      requestId: cashOut.requestId,
      answer: { cashedOutAt: cashOut.at, payout, balance: 1_000 - amount + payout },
    });
  }

  betOf(playerId: string) {
    return this.state.bets.find((b) => b.playerId === playerId);
  }
}
