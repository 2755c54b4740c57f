import { TILES } from "@casino/common/games/mines/engine";
import { cn } from "../../ui/cn";
import { GemIcon, MineIcon } from "../shared/icons";
import type { WatchViewProps } from "../contract";

/** A watched mines round (the together dialog): the grid, gems found and, once over, the mines. */
interface MinesView {
  mineCount: number;
  revealed: number[];
  multiplier: number;
  cashValue: number;
  mines?: number[];
  hit?: number | null;
}

export default function WatchMines(props: WatchViewProps) {
  const view = props.view as MinesView;
  const revealed = new Set(view.revealed);
  const mines = new Set(view.mines ?? []);
  return (
    <div className="mx-auto grid max-w-xs grid-cols-5 gap-1.5" data-testid="watch-mines" aria-label={`${view.revealed.length} gems found`}>
      {Array.from({ length: TILES }, (_, tile) => {
        const gem = revealed.has(tile);
        const mine = mines.has(tile);
        return (
          <div
            key={tile}
            data-testid="watch-tile"
            data-state={gem ? "gem" : mine ? "mine" : "hidden"}
            className={cn(
              "flex aspect-square items-center justify-center rounded-lg border border-border",
              gem ? "bg-emerald-500/25" : mine ? (view.hit === tile ? "bg-rose-400" : "bg-rose-100") : "bg-muted",
            )}
          >
            {gem ? <GemIcon size={22} /> : mine ? <MineIcon size={22} /> : null}
          </div>
        );
      })}
    </div>
  );
}
