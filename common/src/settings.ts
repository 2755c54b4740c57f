import { z } from "zod";
import { playerRef } from "./api";

/**
 * A player's play settings: sound on or off and its volume, result animations on or off. Kept on the
 * device for everyone and on the player's record for a signed-in (non-guest) player, whose record then
 * decides on every device. Turbo is not here: it is a choice of one device (its speed, its screen).
 */
export interface PlaySettings {
  soundOn: boolean;
  /** 0-100, a percentage of each sound's own volume (click 0.3, win and lose 0.5) */
  soundVolume: number;
  animationsOn: boolean;
}

export const DEFAULT_PLAY_SETTINGS: PlaySettings = { soundOn: true, soundVolume: 100, animationsOn: true };

export const soundVolume = z
  .number({ message: "soundVolume must be a number from 0 to 100" })
  .int("soundVolume must be a whole number from 0 to 100")
  .min(0, "soundVolume must be from 0 to 100")
  .max(100, "soundVolume must be from 0 to 100");

const playSettingsFields = {
  soundOn: z.boolean({ message: "soundOn must be true or false" }),
  soundVolume,
  animationsOn: z.boolean({ message: "animationsOn must be true or false" }),
};

/** `PATCH /api/player/settings`: the player and one or more settings to change; nothing else. */
export const playSettingsRequest = z
  .object({
    playerId: playerRef,
    soundOn: playSettingsFields.soundOn.optional(),
    soundVolume: playSettingsFields.soundVolume.optional(),
    animationsOn: playSettingsFields.animationsOn.optional(),
  })
  .strict()
  .refine((b) => b.soundOn !== undefined || b.soundVolume !== undefined || b.animationsOn !== undefined, {
    message: "give at least one of soundOn, soundVolume, animationsOn",
  });

const storedSettings = z.object(playSettingsFields).partial();

/**
 * The settings in force: the player's record when there is one (a non-guest), otherwise what this
 * device stored (JSON), otherwise the defaults; each field falls back on its own when unreadable.
 */
export function resolvePlaySettings(player: Partial<PlaySettings> | null | undefined, stored: string | null | undefined): PlaySettings {
  let local: Partial<PlaySettings> = {};
  if (stored) {
    try {
      const parsed = storedSettings.safeParse(JSON.parse(stored));
      if (parsed.success) local = parsed.data;
    } catch {
      // unreadable: the defaults
    }
  }
  const pick = <K extends keyof PlaySettings>(key: K): PlaySettings[K] => {
    const fromPlayer = player?.[key];
    if (fromPlayer !== undefined && playSettingsFields[key].safeParse(fromPlayer).success) return fromPlayer;
    return local[key] ?? DEFAULT_PLAY_SETTINGS[key];
  };
  return { soundOn: pick("soundOn"), soundVolume: pick("soundVolume"), animationsOn: pick("animationsOn") };
}
