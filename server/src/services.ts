import type { CoreServices } from "./core/services";
import type { Ledger } from "./ledger";
import type { Retention } from "./ops/retention";
import type { RaceSweep } from "./together/race-sweep";
import type { CrashStore } from "./crash/crash-store";
import type { TableStore } from "./table/table-store";
import type { HoldemStore } from "./holdem/holdem-store";
import type { SkillRounds } from "./skill/skill-rounds";
import type { Leaderboards } from "./leaderboard/leaderboards";
import type { Progress } from "./progress/progress";
import type { Together } from "./together/together";

/**
 * Everything the REST routers and rooms need, built once at boot (app.ts): the core's services and each
 * product's. A room or router takes only the part it uses (its own `Pick`), never this whole bag.
 */
export interface Services extends CoreServices {
  /** The products' money, each product's module wired once on the ledger's engine (ledger.ts). */
  ledger: Ledger;
  retention: Retention;
  crash: CrashStore;
  /** The shared blackjack table's shoes and rounds (its money is the ledger's: table-money.ts). */
  table: TableStore;
  /** The Hold'em tables, their hands and the restart rule (their money is the ledger's: holdem-money.ts). */
  holdem: HoldemStore;
  skill: SkillRounds;
  leaderboards: Leaderboards;
  progress: Progress;
  /** Who is in which activity instance, and the feeds of settled rounds. */
  together: Together;
  /** Finishes the races past their end that no together room finished (every member had left). */
  raceSweep: RaceSweep;
}
