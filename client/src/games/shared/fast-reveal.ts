import { useEffect } from "react";
import { MotionGlobalConfig } from "motion/react";

/**
 * While a table shows results at once (Turbo, auto-bet, animations off), every animation of the page
 * is instant: motion's tweens, springs and their delays, and the CSS ones (the `fast-reveal` class,
 * styles.css). Undone when the table closes or the reveal animations come back (motion's stay instant
 * while animations are off for the whole page).
 */
export function useInstantAnimations(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    MotionGlobalConfig.skipAnimations = true;
    document.documentElement.classList.add("fast-reveal");
    return () => {
      // animations off for the whole page (useNoMotionClass) stay off
      MotionGlobalConfig.skipAnimations = document.documentElement.classList.contains("no-motion");
      document.documentElement.classList.remove("fast-reveal");
    };
  }, [on]);
}
