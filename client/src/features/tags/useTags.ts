import { useCallback, useEffect, useState } from "react";
import type { PlayerTagItem } from "@casino/common/api";
import { api, seg } from "../../net/api";

/** The player's tags, read when asked (the dialog reads them each time it opens). */
export function useTags(playerId: string | undefined, active: boolean) {
  const [tags, setTags] = useState<PlayerTagItem[] | null>(null);
  const [error, setError] = useState(false);
  const load = useCallback(async () => {
    if (!playerId) return;
    try {
      setTags(await api<PlayerTagItem[]>(`/player/${seg(playerId)}/tags`));
      setError(false);
    } catch (e) {
      console.error("Failed to fetch tags", e);
      setError(true);
    }
  }, [playerId]);
  useEffect(() => {
    if (active) void load();
  }, [active, load]);
  return { tags, error };
}
