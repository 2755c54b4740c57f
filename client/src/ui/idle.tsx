import { useEffect, useState, type ReactNode } from "react";

/** Runs `task` in the task after the next frame is painted. Returns a function that cancels it. */
export function afterPaint(task: () => void): () => void {
  let cancel = () => {};
  // A frame callback runs before that frame's paint: the task after it comes once it is painted.
  const frame = requestAnimationFrame(() => {
    const timer = setTimeout(task, 0);
    cancel = () => clearTimeout(timer);
  });
  cancel = () => cancelAnimationFrame(frame);
  return () => cancel();
}

/**
 * Runs `task` once the browser is idle after the next frame is painted (at the latest `timeoutMs`
 * later), so work the first view does not need neither delays its paint nor lengthens its tasks.
 * Returns a function that cancels it.
 */
export function afterIdle(task: () => void, timeoutMs = 1500): () => void {
  let cancel = afterPaint(() => {
    if (typeof requestIdleCallback === "function") {
      const id = requestIdleCallback(task, { timeout: timeoutMs });
      cancel = () => cancelIdleCallback(id);
    } else {
      const later = setTimeout(task, 0);
      cancel = () => clearTimeout(later);
    }
  });
  return () => cancel();
}

/** False until the browser is idle after the component's first paint (see `afterIdle`). */
export function useAfterIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => afterIdle(() => setIdle(true)), []);
  return idle;
}

/**
 * Mounts its children once the browser is idle after the first paint (work the first view does not
 * need); `fallback` (nothing by default) until then.
 */
export function AfterIdle({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  return useAfterIdle() ? children : fallback;
}
