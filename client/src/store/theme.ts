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
  /** The player picked light or dark; until then the mode follows the device's preference. */
  modeChosen: boolean;
  /**
   * Applies and stores a change on this device (the server save is the caller's: non-guests only). A
   * mode given is the player's choice, and the device's preference no longer decides.
   */
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

/** The device's light/dark preference (`prefers-color-scheme`); null where the browser cannot tell. */
const darkQuery = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : null;
const lightQuery = typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: light)") : null;
export const systemMode = (): ThemeMode | null => (darkQuery?.matches ? "dark" : lightQuery?.matches ? "light" : null);

export const useTheme = create<ThemeState>()((set, get) => ({
  ...resolveTheme(null, stored(), systemMode()),
  set: (change) => {
    const modeChosen = get().modeChosen || change.mode !== undefined;
    const next = { mode: change.mode ?? get().mode, color: change.color ?? get().color, modeChosen };
    if (modeChosen) storage.set(STORAGE_KEYS.themeMode, next.mode);
    storage.set(STORAGE_KEYS.themeColor, next.color);
    applyTheme(next.mode, next.color);
    set(next);
  },
}));

/** Until the player picks a mode, a change of the device's preference applies at once. */
function followSystem(): void {
  const { modeChosen, color } = useTheme.getState();
  const mode = systemMode();
  if (modeChosen || !mode) return;
  applyTheme(mode, color);
  useTheme.setState({ mode });
}
darkQuery?.addEventListener?.("change", followSystem);
lightQuery?.addEventListener?.("change", followSystem);

/** Once the player is known: a non-guest's record decides; a guest keeps this device's choice. */
export function adoptPlayerTheme(player: { themeMode: string; themeModeChosen?: boolean; themeColor: string; isGuest: boolean }): void {
  const theme = resolveTheme(player.isGuest ? null : player, stored(), systemMode());
  applyTheme(theme.mode, theme.color);
  useTheme.setState(theme);
}
