import { useCallback, useState } from "react";

/**
 * Chips on a betting layout: each spot holds a number of chips of the panel's amount, so ½ / 2x / Max
 * and auto-bet's changes scale the whole layout at once. Spots are keyed by a string the table defines.
 */
export interface ChipLayout<S> {
  spots: Map<string, { spot: S; chips: number }>;
  /** chips on the layout in all */
  count: number;
  add(key: string, spot: S, chips?: number): void;
  remove(key: string): void;
  undo(): void;
  clear(): void;
}

interface Layout<S> {
  spots: Map<string, { spot: S; chips: number }>;
  /** keys in the order chips were added, for undo */
  history: string[];
}

export function useChips<S>(): ChipLayout<S> {
  const [layout, setLayout] = useState<Layout<S>>(() => ({ spots: new Map(), history: [] }));
  const add = useCallback((key: string, spot: S, chips = 1) => {
    setLayout((prev) => {
      const spots = new Map(prev.spots);
      spots.set(key, { spot, chips: (prev.spots.get(key)?.chips ?? 0) + chips });
      return { spots, history: [...prev.history, key] };
    });
  }, []);
  const remove = useCallback((key: string) => {
    setLayout((prev) => {
      const spots = new Map(prev.spots);
      spots.delete(key);
      return { spots, history: prev.history.filter((k) => k !== key) };
    });
  }, []);
  const undo = useCallback(() => {
    setLayout((prev) => {
      const key = prev.history[prev.history.length - 1];
      if (key === undefined) return prev;
      const spots = new Map(prev.spots);
      const entry = prev.spots.get(key);
      if (entry && entry.chips > 1) spots.set(key, { ...entry, chips: entry.chips - 1 });
      else spots.delete(key);
      return { spots, history: prev.history.slice(0, -1) };
    });
  }, []);
  const clear = useCallback(() => setLayout({ spots: new Map(), history: [] }), []);
  let count = 0;
  for (const { chips } of layout.spots.values()) count += chips;
  return { spots: layout.spots, count, add, remove, undo, clear };
}

/** The coins a chip stack holds, short: 950, 1.2k, 3.4M. */
export const chipLabel = (coins: number): string =>
  coins >= 1_000_000 ? `${Math.floor(coins / 100_000) / 10}M` : coins >= 1000 ? `${Math.floor(coins / 100) / 10}k` : String(coins);

/** A chip stack drawn on a spot. */
export function chipClass(size: "sm" | "md" = "md"): string {
  return `pointer-events-none flex items-center justify-center rounded-full border-2 border-dashed border-white bg-amber-500 font-bold text-slate-950 shadow ${
    size === "sm" ? "h-5 min-w-5 px-0.5 text-[9px]" : "h-7 min-w-7 px-1 text-[10px]"
  }`;
}
