import type { Bets } from "./bets";
import type { DailySpins } from "./spins";
import type { SeedRotation } from "./seed-rotation";

/** The casino's side of the ledger: a bet and its actions, the daily spin, a seed rotation (ledger.ts wires each to its module). */
export interface CasinoLedger {
  placeBet: Bets["placeBet"];
  act: Bets["act"];
  dailySpin: DailySpins["spin"];
  rotateSeeds: SeedRotation["rotate"];
}
