import { TagSelect } from "../tags/TagSelect";
import { LeaderboardPanel } from "./LeaderboardPanel";

/** The Leaderboard tab: the player's active tag control above the paged leaderboard. */
export default function LeaderboardTab() {
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <TagSelect />
      <LeaderboardPanel />
    </div>
  );
}
