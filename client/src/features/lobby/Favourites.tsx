import { Star } from "lucide-react";
import { GAMES } from "@casino/common/catalogue";
import { useGamePicks } from "../../store/game-picks";
import { PickButton, PickList, PickRow } from "./PickRow";

/** The games starred on this device (a tile's star), as one compact row; hidden while none is. */
export function Favourites() {
  const favourites = useGamePicks((s) => s.favourites);
  const games = GAMES.filter((g) => favourites.includes(g.id));
  if (games.length === 0) return null;
  return (
    <PickRow
      id="favourites"
      title="Favourites"
      testId="favourites"
      icon={<Star className="h-4 w-4 fill-amber-300 text-amber-500" aria-hidden />}
    >
      <PickList>
        {games.map((game) => (
          <PickButton key={game.id} game={game} testId={`favourite-tile-${game.id}`} label={`Play ${game.title} from favourites`} />
        ))}
      </PickList>
    </PickRow>
  );
}
