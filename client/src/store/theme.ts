import { create } from "zustand";
import {
  accentColor,
  chartColor,
  foregroundOn,
  ON_COLOR,
  parseHsl,
  primaryEdge,
  primaryInk,
  resolveTheme,
  type ThemeMode,
} from "@casino/common/theme";
import { STORAGE_KEYS, storage } from "../platform/storage";

interface ThemeState {
  mode: ThemeMode;
  color: string;
  /** Applies and stores a change on this device (the server save is the caller's: non-guests only). */
  set(theme: { mode?: ThemeMode; color?: string }): void;
}

/** Writes the theme into the document: the dark class and the colour variables the styles read. */
export function applyTheme(mode: ThemeMode, color: string): void {
  const root = document.documentElement;
  root.classList.toggle("dark", mode === "dark");
  root.style.setProperty("--primary", color);
  root.style.setProperty("--primary-hue", String(parseHsl(color)?.h ?? 200));
  root.style.setProperty("--primary-ink", primaryInk(color, mode));
  root.style.setProperty("--primary-edge", primaryEdge(color, mode));
  root.style.setProperty("--accent-color", accentColor(color));
  root.style.setProperty("--chart", chartColor(color));
  root.style.setProperty("--primary-foreground", ON_COLOR[foregroundOn(color)]);
}

const stored = () => ({ mode: storage.get(STORAGE_KEYS.themeMode), color: storage.get(STORAGE_KEYS.themeColor) });

export const useTheme = create<ThemeState>()((set, get) => ({
  ...resolveTheme(null, stored()),
  set: (change) => {
    const next = { mode: change.mode ?? get().mode, color: change.color ?? get().color };
    storage.set(STORAGE_KEYS.themeMode, next.mode);
    storage.set(STORAGE_KEYS.themeColor, next.color);
    applyTheme(next.mode, next.color);
    set(next);
  },
}));

/** Once the player is known: a non-guest's record decides; a guest keeps this device's choice. */
export function adoptPlayerTheme(player: { themeMode: string; themeColor: string; isGuest: boolean }): void {
  const theme = resolveTheme(player.isGuest ? null : player, stored());
  applyTheme(theme.mode, theme.color);
  useTheme.setState(theme);
}
