import { InitialSchema1763700000000 } from "./1763700000000-initial-schema";
import { SeedTags1763700000001 } from "./1763700000001-seed-tags";
import { LeaderboardsAndProgress1763820000000 } from "./1763820000000-leaderboards-and-progress";

/** In order; the data source runs the pending ones at start. */
export const MIGRATIONS = [
  InitialSchema1763700000000,
  SeedTags1763700000001,
  LeaderboardsAndProgress1763820000000,
];
