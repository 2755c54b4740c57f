import { useSyncExternalStore } from "react";

const QUERY = "(prefers-reduced-motion: reduce)";
const subscribe = (onChange: () => void) => {
  const mq = matchMedia(QUERY);
  mq.addEventListener("change", onChange);
  return () => mq.removeEventListener("change", onChange);
};

/** Whether the player asked the system for reduced motion (followed live). */
export const useReducedMotion = (): boolean => useSyncExternalStore(subscribe, () => matchMedia(QUERY).matches);
