import { InitialSchema1763700000000 } from "./1763700000000-initial-schema";
import { SeedTags1763700000001 } from "./1763700000001-seed-tags";
import { MoneySafety1763800000000 } from "./1763800000000-money-safety";
import { CommitNextSeeds1763800000001 } from "./1763800000001-commit-next-seeds";
import { LeaderboardsAndProgress1763820000000 } from "./1763820000000-leaderboards-and-progress";
import { CrashRounds1763830000000 } from "./1763830000000-crash-rounds";
import { SkillRounds1763830000001 } from "./1763830000001-skill-rounds";
import { VerifiableHistory1763840000000 } from "./1763840000000-verifiable-history";
import { SkillRefusalCheck1763890000000 } from "./1763890000000-skill-refusal-check";
import { HotPlayerUpdates1763900000000 } from "./1763900000000-hot-player-updates";
import { OperatorTools1764000000000 } from "./1764000000000-operator-tools";
import { ValidateAccountChecks1764000000001 } from "./1764000000001-validate-account-checks";
import { OwnSkillRecords1764100000000 } from "./1764100000000-own-skill-records";
import { PlaySettings1764100000001 } from "./1764100000001-play-settings";
import { RoundLookup1764100000002 } from "./1764100000002-round-lookup";
import { PayoutRoundingRule1764100000003 } from "./1764100000003-payout-rounding-rule";
import { BlackjackTable1764100000004 } from "./1764100000004-blackjack-table";
import { CrashPayoutRounding1764100000005 } from "./1764100000005-crash-payout-rounding";
import { FewerWritesPerBet1764100000006 } from "./1764100000006-fewer-writes-per-bet";
import { DoubleEntryAccounts1764100000007 } from "./1764100000007-double-entry-accounts";
import { ResultToastsSetting1764100000008 } from "./1764100000008-result-toasts-setting";
import { ThemeModeChosen1764100000009 } from "./1764100000009-theme-mode-chosen";
import { HoldemTable1764100000010 } from "./1764100000010-holdem-table";
import { ReactionsSetting1764100000011 } from "./1764100000011-reactions-setting";
import { TonightBoard1764100000012 } from "./1764100000012-tonight-board";
import { DotsRulesVersion1764100000013 } from "./1764100000013-dots-rules-version";
import { HoldemHandPlayers1764100000014 } from "./1764100000014-holdem-hand-players";
import { TonightRaces1764100000015 } from "./1764100000015-tonight-races";
import { CoveringPlayerIndexes1764100000016 } from "./1764100000016-covering-player-indexes";
import { PartitionsByMonth1764100000017 } from "./1764100000017-partitions-by-month";
import { LedgerCheckpoints1764100000018 } from "./1764100000018-ledger-checkpoints";

/** In order; the data source runs the pending ones at start. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  SeedTags1763700000001,
  MoneySafety1763800000000,
  CommitNextSeeds1763800000001,
  LeaderboardsAndProgress1763820000000,
  CrashRounds1763830000000,
  SkillRounds1763830000001,
  VerifiableHistory1763840000000,
  SkillRefusalCheck1763890000000,
  HotPlayerUpdates1763900000000,
  OperatorTools1764000000000,
  ValidateAccountChecks1764000000001,
  OwnSkillRecords1764100000000,
  PlaySettings1764100000001,
  RoundLookup1764100000002,
  PayoutRoundingRule1764100000003,
  BlackjackTable1764100000004,
  CrashPayoutRounding1764100000005,
  FewerWritesPerBet1764100000006,
  DoubleEntryAccounts1764100000007,
  ResultToastsSetting1764100000008,
  ThemeModeChosen1764100000009,
  HoldemTable1764100000010,
  ReactionsSetting1764100000011,
  TonightBoard1764100000012,
  DotsRulesVersion1764100000013,
  HoldemHandPlayers1764100000014,
  TonightRaces1764100000015,
  CoveringPlayerIndexes1764100000016,
  PartitionsByMonth1764100000017,
  LedgerCheckpoints1764100000018,
];
