import { create } from "zustand";
import { resolvePlaySettings, type PlaySettings } from "@casino/common/settings";
import { api } from "../net/api";
import { STORAGE_KEYS, storage } from "../platform/storage";
import { useSession } from "./session";

interface SettingsState extends PlaySettings {
  /** Result animations skipped (this device only). */
  turbo: boolean;
  /** An auto-bet is running: results show at once, and no per-round toast or sound. */
  autoBetRunning: boolean;
  /** Applies and stores a change on this device, then saves it on a signed-in player's record. */
  set(change: Partial<PlaySettings>): void;
  setTurbo(on: boolean): void;
  setAutoBetRunning(running: boolean): void;
}

const storedSettings = () => resolvePlaySettings(null, storage.get(STORAGE_KEYS.playSettings));

/** Changes not saved yet: a volume slider moved across sends one request when it rests. */
let unsaved: Partial<PlaySettings> = {};
let saveTimer: ReturnType<typeof setTimeout> | undefined;
const SAVE_AFTER_MS = 400;

function saveSoon(change: Partial<PlaySettings>): void {
  const player = useSession.getState().player;
  if (!player || player.isGuest) return;
  unsaved = { ...unsaved, ...change };
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => {
    const pending = unsaved;
    unsaved = {};
    void saveOnServer(pending);
  }, SAVE_AFTER_MS);
}

/** Saves the settings on the server for a signed-in player; a failure is only logged (the local change stays). */
async function saveOnServer(change: Partial<PlaySettings>): Promise<void> {
  const player = useSession.getState().player;
  if (!player || player.isGuest) return;
  try {
    await api("/player/settings", { method: "PATCH", body: { playerId: player.id, ...change } });
    useSession.getState().patchPlayer(change);
  } catch (error) {
    console.error("Failed to save settings to database", error);
  }
}

export const useSettings = create<SettingsState>()((set, get) => ({
  ...storedSettings(),
  turbo: storage.get(STORAGE_KEYS.turbo) === "on",
  autoBetRunning: false,
  set: (change) => {
    const { soundOn, soundVolume, animationsOn, resultToastsOn, reactionsOn } = { ...get(), ...change };
    const next: PlaySettings = { soundOn, soundVolume, animationsOn, resultToastsOn, reactionsOn };
    storage.set(STORAGE_KEYS.playSettings, JSON.stringify(next));
    set(next);
    saveSoon(change);
  },
  setTurbo: (on) => {
    storage.set(STORAGE_KEYS.turbo, on ? "on" : "off");
    set({ turbo: on });
  },
  setAutoBetRunning: (running) => set({ autoBetRunning: running }),
}));

/** Once the player is known: a non-guest's record decides (and this device keeps a copy); a guest keeps this device's choice. */
export function adoptPlayerSettings(player: Partial<PlaySettings> & { isGuest: boolean }): void {
  const settings = resolvePlaySettings(player.isGuest ? null : player, storage.get(STORAGE_KEYS.playSettings));
  if (!player.isGuest) storage.set(STORAGE_KEYS.playSettings, JSON.stringify(settings));
  useSettings.setState(settings);
}
