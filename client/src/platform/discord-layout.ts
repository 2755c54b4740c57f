import { discordSdk } from "./discord-sdk";
import { useLayout } from "../store/layout";

/**
 * Phones inside Discord (SDK 2.5, checked against its schemas): the orientation lock fitted to each
 * screen, and the layout mode Discord shows the activity in.
 *
 * `SET_ORIENTATION_LOCK_STATE` (`Common.OrientationLockStateTypeObject`: UNLOCKED 1, PORTRAIT 2,
 * LANDSCAPE 3; the response is null) exists on Discord's iOS and Android clients only, so it is sent on
 * a `platform=mobile` launch only. The lobby is a list that reads either way: unlocked. A table is laid
 * out for a tall screen (the game above its bet panel): portrait. The picture-in-picture window is
 * left to the user (unlocked): it shows the compact view either way.
 */
export const ORIENTATION = { unlocked: 1, portrait: 2, landscape: 3 } as const;
type Lock = (typeof ORIENTATION)[keyof typeof ORIENTATION];
export type Screen = "lobby" | "table";
export const ORIENTATION_OF_SCREEN: Record<Screen, Lock> = { lobby: ORIENTATION.unlocked, table: ORIENTATION.portrait };

/** `Common.LayoutModeTypeObject`: the layout mode of `ACTIVITY_LAYOUT_MODE_UPDATE`. */
export const LAYOUT_MODE = { focused: 0, pip: 1, grid: 2 } as const;

let lockedTo: Lock | null = null;

/** Locks the phone's orientation for this screen; an unchanged lock is not sent again. */
export async function lockOrientation(screen: Screen): Promise<void> {
  const sdk = discordSdk();
  if (!sdk || sdk.platform !== "mobile") return;
  const lock = ORIENTATION_OF_SCREEN[screen];
  if (lock === lockedTo) return;
  lockedTo = lock;
  try {
    await sdk.commands.setOrientationLockState({ lock_state: lock, picture_in_picture_lock_state: ORIENTATION.unlocked });
  } catch (error) {
    // An older client answers INVALID_COMMAND; the app works unlocked.
    lockedTo = null;
    console.warn("orientation lock not set", error);
  }
}

/** Follows `ACTIVITY_LAYOUT_MODE_UPDATE` (no scope) into `useLayout`. Returns the unsubscribe. */
export async function watchLayoutMode(): Promise<() => void> {
  const sdk = discordSdk();
  if (!sdk) return () => undefined;
  const listener = (event: { layout_mode: number }) => useLayout.setState({ pip: event.layout_mode === LAYOUT_MODE.pip });
  try {
    await sdk.subscribe("ACTIVITY_LAYOUT_MODE_UPDATE", listener);
  } catch (error) {
    console.warn("layout mode unavailable", error);
  }
  return () => {
    useLayout.setState({ pip: false });
    void sdk.unsubscribe("ACTIVITY_LAYOUT_MODE_UPDATE", listener).catch(() => undefined);
  };
}
