import { startTransition, useEffect, useState } from "react";
import { afterIdle } from "../../ui/idle";
import type { GameId } from "@casino/common/catalogue";

let known: Set<GameId> | null = null;

/**
 * Which games have a table, or null until known. The registry of tables lives with the game host,
 * outside the lobby's entry chunk, so it is loaded once the lobby is on screen and the browser idle.
 */
export function usePlayable(): Set<GameId> | null {
  const [playable, setPlayable] = useState(known);
  useEffect(() => {
    if (known) return;
    let alive = true;
    const cancel = afterIdle(() => {
      import("../game-host/tables")
        .then((m) => {
          known = m.gamesWithTables();
          // The tiles' badges: drawn in slices, not in one long task.
          if (alive) startTransition(() => setPlayable(known));
        })
        .catch((error: unknown) => console.warn("Could not load the game list", error));
    });
    return () => {
      alive = false;
      cancel();
    };
  }, []);
  return playable;
}
