import { z } from "zod";
import { playerRef } from "./api";

/** The zod schemas of the play settings (apart from settings.ts, which the client's entry imports without zod). */
export const soundVolume = z
  .number({ message: "soundVolume must be a number from 0 to 100" })
  .int("soundVolume must be a whole number from 0 to 100")
  .min(0, "soundVolume must be from 0 to 100")
  .max(100, "soundVolume must be from 0 to 100");

const playSettingsFields = {
  soundOn: z.boolean({ message: "soundOn must be true or false" }),
  soundVolume,
  animationsOn: z.boolean({ message: "animationsOn must be true or false" }),
  resultToastsOn: z.boolean({ message: "resultToastsOn must be true or false" }),
  reactionsOn: z.boolean({ message: "reactionsOn must be true or false" }),
};

/** `PATCH /api/player/settings`: the player and one or more settings to change; nothing else. */
export const playSettingsRequest = z
  .object({
    playerId: playerRef,
    soundOn: playSettingsFields.soundOn.optional(),
    soundVolume: playSettingsFields.soundVolume.optional(),
    animationsOn: playSettingsFields.animationsOn.optional(),
    resultToastsOn: playSettingsFields.resultToastsOn.optional(),
    reactionsOn: playSettingsFields.reactionsOn.optional(),
  })
  .strict()
  .refine((b) => Object.keys(playSettingsFields).some((key) => b[key as keyof typeof playSettingsFields] !== undefined), {
    message: `give at least one of ${Object.keys(playSettingsFields).join(", ")}`,
  });
