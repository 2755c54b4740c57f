import { useEffect, useState } from "react";
import type { GameId } from "@casino/common/catalogue";

let known: Set<GameId> | null = null;

/**
 * Which games have a table, or null until known. The registry of tables lives with the game host,
 * outside the lobby's entry chunk, so it is loaded after the lobby is on screen.
 */
export function usePlayable(): Set<GameId> | null {
  const [playable, setPlayable] = useState(known);
  useEffect(() => {
    if (known) return;
    let alive = true;
    import("../game-host/tables")
      .then((m) => {
        known = m.gamesWithTables();
        if (alive) setPlayable(known);
      })
      .catch((error: unknown) => console.warn("Could not load the game list", error));
    return () => {
      alive = false;
    };
  }, []);
  return playable;
}
