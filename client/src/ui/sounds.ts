import { CLICK_SOUND_VOLUME, RESULT_SOUND_VOLUME } from "@casino/common/constants";
import { useSettings } from "../store/settings";

/** The product's sounds (client/public/sounds, made by client/scripts/make-sounds.ts). */
const VOLUMES = { click: CLICK_SOUND_VOLUME, win: RESULT_SOUND_VOLUME, lose: RESULT_SOUND_VOLUME } as const;
export type SoundName = keyof typeof VOLUMES;

/**
 * Plays a sound at the spec's volume scaled by the player's volume setting; nothing when the player
 * turned sound off or the volume is 0. A failure (autoplay refused, no audio device) only logs a warning.
 */
export function playSound(name: SoundName): void {
  const { soundOn, soundVolume } = useSettings.getState();
  if (!soundOn || soundVolume <= 0) return;
  try {
    const audio = new Audio(`/sounds/${name}.wav`);
    audio.volume = VOLUMES[name] * (soundVolume / 100);
    void audio.play().catch((error: unknown) => console.warn(`Could not play the ${name} sound`, error));
  } catch (error) {
    console.warn(`Could not play the ${name} sound`, error);
  }
}
