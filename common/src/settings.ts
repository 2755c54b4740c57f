/**
 * A player's play settings: sound on or off and its volume, result animations on or off, and the toast
 * that tells each round's result on or off (the table shows the result either way), and the reactions
 * of the activity's members shown or muted. Kept on the
 * device for everyone and on the player's record for a signed-in (non-guest) player, whose record then
 * decides on every device. Turbo is not here: it is a choice of one device (its speed, its screen).
 */
export interface PlaySettings {
  soundOn: boolean;
  /** 0-100, a percentage of each sound's own volume (click 0.3, win and lose 0.5) */
  soundVolume: number;
  animationsOn: boolean;
  /** "You won!" / "Better luck next time" after each round; the table shows the result either way */
  resultToastsOn: boolean;
  /** Other members' reactions (emoji floating over a seat, the crash round, a watched table, a feed row) shown */
  reactionsOn: boolean;
}

export const DEFAULT_PLAY_SETTINGS: PlaySettings = {
  soundOn: true,
  soundVolume: 100,
  animationsOn: true,
  resultToastsOn: true,
  reactionsOn: true,
};

/** A value `key` may hold: the check of the record's and the device's copies (no zod: the entry stays small). */
export function isPlaySetting<K extends keyof PlaySettings>(key: K, value: unknown): value is PlaySettings[K] {
  if (key === "soundVolume") return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 100;
  return typeof value === "boolean";
}

/**
 * The settings in force: the player's record when there is one (a non-guest), otherwise what this
 * device stored (JSON), otherwise the defaults; each field falls back on its own when unreadable.
 */
export function resolvePlaySettings(player: Partial<PlaySettings> | null | undefined, stored: string | null | undefined): PlaySettings {
  let local: Record<string, unknown> = {};
  if (stored) {
    try {
      const parsed: unknown = JSON.parse(stored);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) local = parsed as Record<string, unknown>;
    } catch {
      // unreadable: the defaults
    }
  }
  const pick = <K extends keyof PlaySettings>(key: K): PlaySettings[K] => {
    const fromPlayer = player?.[key];
    if (isPlaySetting(key, fromPlayer)) return fromPlayer;
    const fromDevice = local[key];
    return isPlaySetting(key, fromDevice) ? fromDevice : DEFAULT_PLAY_SETTINGS[key];
  };
  return {
    soundOn: pick("soundOn"),
    soundVolume: pick("soundVolume"),
    animationsOn: pick("animationsOn"),
    resultToastsOn: pick("resultToastsOn"),
    reactionsOn: pick("reactionsOn"),
  };
}
