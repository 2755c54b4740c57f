import type { BetAnswer, CrashBetAnswer, CrashCashOutAnswer, RotateAnswer, SkillRoundReward, SkillScore, SpinAnswer } from "@casino/common";
import type { Database } from "./platform/db/database";
import type { Player } from "./platform/db/entities/index";
import type { Log } from "./platform/log";
import { Bets, type AbandonedSettlement } from "./casino/bets";
import type { CasinoLedger } from "./casino/casino-ledger";
import { CrashMoney, type CrashLedger } from "./crash/crash-money";
import type { InterruptedBetSettler } from "./crash/crash-store";
import type { PlayerCreation } from "./core/players/players";
import { MoneyRequests, type Announcements, type NewPlayer, type Replayable } from "./core/ledger/engine/index";
import { createPlayer } from "./core/players/new-players";
import { SeedRotation } from "./casino/seed-rotation";
import { SkillMoney, type SkillLedger } from "./skill/skill-money";
import { DailySpins } from "./casino/spins";
import { TableMoney } from "./table/table-money";
import { HoldemMoney } from "./holdem/holdem-money";
import type { SeatSettlement, TableActionDone, TableBetPlaced, TableLedger } from "./table/table-store";

/**
 * The services' one handle on money: the products' money (the casino's bets, daily spin and seed
 * rotation, the crash room's, the blackjack table's, the Hold'em tables', skill rewards) and new players,
 * built once on the ledger's engine (`core/ledger/engine/`), which announces what each commit did on `bus`
 * (`engine/announcements.ts`). Each method is its product's, and each product names the part it uses
 * (`CasinoLedger`, `CrashLedger`, `TableLedger`, `SkillLedger`, `PlayerCreation`); this class only wires
 * them. Operators' adjustments run in the admin process (`admin/adjustments.ts`). `origin`, where a method takes it, is the room connection that asks (its balance
 * announcement names it, so that connection skips the news its own answer carries).
 */
export class Ledger implements CasinoLedger, CrashLedger, InterruptedBetSettler, TableLedger, SkillLedger, PlayerCreation {
  private readonly requests: MoneyRequests;
  private readonly bets: Bets;
  private readonly spins: DailySpins;
  private readonly crash: CrashMoney;
  private readonly skill: SkillMoney;
  private readonly seedRotation: SeedRotation;
  private readonly table: TableMoney;
  /** The Hold'em tables' buy-ins, cash-outs and hands (holdem-money.ts). */
  readonly holdem: HoldemMoney;

  constructor(db: Database, log: Pick<Log, "error">, bus: Announcements) {
    this.requests = new MoneyRequests(db, bus);
    this.bets = new Bets(this.requests, log);
    this.spins = new DailySpins(this.requests);
    this.crash = new CrashMoney(db, this.requests);
    this.skill = new SkillMoney(this.requests);
    this.table = new TableMoney(db, this.requests);
    this.holdem = new HoldemMoney(db, this.requests);
    // A rotation moves no coins: it announces the new pair only.
    this.seedRotation = new SeedRotation(db, bus);
  }

  /** A new player, their starting grant and their seeds, together (new-players.ts). */
  createPlayer(fields: NewPlayer): Promise<Player> {
    return createPlayer(this.requests, fields);
  }

  /** Reveals the active server seed and pairs the committed next one with `clientSeed` (seed-rotation.ts). */
  rotateSeeds(
    playerId: string,
    requestId: string,
    clientSeed: string | undefined,
    kind: "rotate" | "client-seed" = "rotate",
    origin?: string,
  ): Promise<Replayable<RotateAnswer>> {
    return this.seedRotation.rotate(playerId, requestId, clientSeed, kind, origin);
  }

  /** A bet in a game of chance (bets.ts). */
  placeBet(
    playerId: string,
    requestId: string,
    game: string,
    amount: number,
    params: unknown,
    origin?: string,
  ): Promise<Replayable<BetAnswer>> {
    return this.bets.placeBet(playerId, requestId, game, amount, params, origin);
  }

  /** An action in the player's open round (bets.ts). */
  act(playerId: string, requestId: string, action: unknown, origin?: string): Promise<Replayable<BetAnswer>> {
    return this.bets.act(playerId, requestId, action, origin);
  }

  /** Settles a round its player left (bets.ts); null when there was nothing to settle or the player is playing. */
  settleAbandonedRound(playerId: string, roundId: string, idleBefore: Date): Promise<AbandonedSettlement | null> {
    return this.bets.settleAbandonedRound(playerId, roundId, idleBefore);
  }

  /** The daily wheel (spins.ts). */
  dailySpin(playerId: string, requestId: string, now = new Date(), origin?: string): Promise<Replayable<SpinAnswer>> {
    return this.spins.spin(playerId, requestId, now, origin);
  }

  /** A bet in the shared crash room (crash-money.ts). */
  placeCrashBet(
    playerId: string,
    requestId: string,
    bet: { roundId: string; amount: number; autoCashOut: number | null },
  ): Promise<Replayable<CrashBetAnswer>> {
    return this.crash.placeBet(playerId, requestId, bet);
  }

  /** A cash-out in the shared crash room (crash-money.ts). */
  cashOutCrashBet(
    playerId: string,
    requestId: string,
    c: { roundId: string; cashedOutAt: number; by: "player" | "auto" },
  ): Promise<Replayable<CrashCashOutAnswer>> {
    return this.crash.cashOut(playerId, requestId, c);
  }

  /** A crash bet whose round was cut short, settled as the restart rule decided (crash-money.ts). */
  settleInterruptedCrashBet(betId: string, cashedOutAt: number | null): Promise<CrashCashOutAnswer | null> {
    return this.crash.settleInterrupted(betId, cashedOutAt);
  }

  /** The reward of a replayed skill round (skill-money.ts). */
  rewardSkillRound(
    playerId: string,
    requestId: string,
    round: { roundId: string; score: SkillScore; reward: number; inputs: unknown; rulesVersion: number },
  ): Promise<Replayable<SkillRoundReward>> {
    return this.skill.reward(playerId, requestId, round);
  }

  // ── The blackjack table (table-money.ts) ──

  /** A seat's opening bet at the shared table. */
  placeTableBet(
    playerId: string,
    requestId: string,
    bet: { roundId: string; seat: number; amount: number },
  ): Promise<Replayable<TableBetPlaced>> {
    return this.table.placeTableBet(playerId, requestId, bet);
  }

  /** A seated player's action, appended to the round's record with the coins it stakes. */
  tableAction(
    playerId: string,
    requestId: string,
    step: { roundId: string; seat: number; index: number; action: unknown; stake: number },
  ): Promise<Replayable<TableActionDone>> {
    return this.table.tableAction(playerId, requestId, step);
  }

  /** A seat's settled round paid and recorded, once. */
  settleTableBet(betId: string, settlement: SeatSettlement, by: "table" | "restart") {
    return this.table.settleTableBet(betId, settlement, by);
  }

  /** A bet of a round never dealt refunded, once. */
  refundTableBet(betId: string) {
    return this.table.refundTableBet(betId);
  }
}
