import { useEffect, useState } from "react";
import type { PlayerTagItem } from "@casino/common/api";
import { api, seg } from "../../net/api";

/** The player's tags, read when asked (the dialog reads them each time it opens). */
export function useTags(playerId: string | undefined, active: boolean) {
  const [tags, setTags] = useState<PlayerTagItem[] | null>(null);
  const [error, setError] = useState(false);
  useEffect(() => {
    if (!active || !playerId) return;
    let current = true;
    api<PlayerTagItem[]>(`/player/${seg(playerId)}/tags`).then(
      (read) => {
        if (!current) return;
        setTags(read);
        setError(false);
      },
      (e: unknown) => {
        console.error("Failed to fetch tags", e);
        if (current) setError(true);
      },
    );
    return () => {
      current = false;
    };
  }, [active, playerId]);
  return { tags, error };
}
