import { useEffect, useSyncExternalStore } from "react";
import { useSettings } from "../store/settings";

const QUERY = "(prefers-reduced-motion: reduce)";
const subscribe = (onChange: () => void) => {
  const mq = matchMedia(QUERY);
  mq.addEventListener("change", onChange);
  return () => mq.removeEventListener("change", onChange);
};
const systemReduces = () => matchMedia(QUERY).matches;

/** Whether the system asks for reduced motion (followed live). */
export const useSystemReducedMotion = (): boolean => useSyncExternalStore(subscribe, systemReduces);

/** Whether to play no animation: the player turned animations off in Settings, or the system asks for reduced motion. */
export const useReducedMotion = (): boolean => {
  const system = useSystemReducedMotion();
  const animationsOn = useSettings((s) => s.animationsOn);
  return system || !animationsOn;
};

/**
 * Whether a table shows a result at once, skipping its reveal animation: animations are off, Turbo is
 * on (a switch of this device), or an auto-bet is running (auto-bet plays in turbo).
 */
export const useFastReveal = (): boolean => {
  const reduced = useReducedMotion();
  const turbo = useSettings((s) => s.turbo);
  const auto = useSettings((s) => s.autoBetRunning);
  return reduced || turbo || auto;
};

/** The same answer outside React (read at the moment a result arrives). */
export const fastRevealNow = (): boolean => {
  const { animationsOn, turbo, autoBetRunning } = useSettings.getState();
  return systemReduces() || !animationsOn || turbo || autoBetRunning;
};

/** Whether motion's global switch has been set by `useNoMotionClass` (so it is set back when animations return). */
let motionSwitched = false;

/**
 * Marks the page while the player wants no animation: the CSS animations and transitions end at once
 * (styles.css), and so do motion's on every page (its fades and springs as well as the transforms that
 * `MotionConfig reducedMotion="user"` leaves out), so each state shows as soon as it is rendered.
 * motion is loaded for this only when animations are off (it stays out of the lobby's entry); it is
 * set from the page's classes when it arrives, so a table showing results at once keeps them instant.
 */
export function useNoMotionClass(): void {
  const reduced = useReducedMotion();
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle("no-motion", reduced);
    if (!reduced && !motionSwitched) return;
    motionSwitched = true;
    void import("motion/react").then(({ MotionGlobalConfig }) => {
      MotionGlobalConfig.skipAnimations = root.classList.contains("no-motion") || root.classList.contains("fast-reveal");
    });
  }, [reduced]);
}
