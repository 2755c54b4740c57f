import { CLICK_SOUND_VOLUME, RESULT_SOUND_VOLUME } from "@casino/common/constants";

/** The product's sounds (client/public/sounds, made by client/scripts/make-sounds.ts). */
const VOLUMES = { click: CLICK_SOUND_VOLUME, win: RESULT_SOUND_VOLUME, lose: RESULT_SOUND_VOLUME } as const;
export type SoundName = keyof typeof VOLUMES;

/** Plays a sound at the spec's volume; a failure (autoplay refused, no audio device) only logs a warning. */
export function playSound(name: SoundName): void {
  try {
    const audio = new Audio(`/sounds/${name}.wav`);
    audio.volume = VOLUMES[name];
    void audio.play().catch((error: unknown) => console.warn(`Could not play the ${name} sound`, error));
  } catch (error) {
    console.warn(`Could not play the ${name} sound`, error);
  }
}
