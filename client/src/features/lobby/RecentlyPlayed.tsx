import { History } from "lucide-react";
import { gameDefinition } from "@casino/common/catalogue";
import { useGamePicks } from "../../store/game-picks";
import { PickButton, PickList, PickRow } from "./PickRow";

/** The games last opened on this device, the latest first, as one compact row; hidden until one was played. */
export function RecentlyPlayed() {
  const recent = useGamePicks((s) => s.recent);
  const games = recent.map(gameDefinition).filter((g) => g !== undefined);
  if (games.length === 0) return null;
  return (
    <PickRow id="recently-played" title="Recently played" icon={<History className="h-4 w-4 text-primary-ink" aria-hidden />}>
      <PickList>
        {games.map((game) => (
          <PickButton key={game.id} game={game} testId={`recent-${game.id}`} label={`Play ${game.title} again`} />
        ))}
      </PickList>
    </PickRow>
  );
}
