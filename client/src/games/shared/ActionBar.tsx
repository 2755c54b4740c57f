import { useLayoutEffect, useRef, type ReactNode } from "react";

/**
 * The table's main action (Bet, the round's actions, auto-bet's start and stop): in the panel on a wide
 * screen; on a phone or tablet (the table above the panel) a bar fixed to the bottom of the screen, so
 * the action is always in view without scrolling. While fixed, its height is published as
 * `--action-bar-height` (the page keeps that much room at its end) and the root is marked
 * `data-action-bar-fixed`.
 */
export function ActionBar(props: { children: ReactNode; hint?: string | null }) {
  const bar = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = bar.current;
    if (!el) return;
    const root = document.documentElement;
    const publish = () => {
      const fixed = getComputedStyle(el).position === "fixed";
      root.style.setProperty("--action-bar-height", fixed ? `${el.offsetHeight}px` : "0px");
      root.toggleAttribute("data-action-bar-fixed", fixed);
    };
    const watch = new ResizeObserver(publish);
    watch.observe(el);
    window.addEventListener("resize", publish);
    publish();
    return () => {
      watch.disconnect();
      window.removeEventListener("resize", publish);
      root.style.removeProperty("--action-bar-height");
      root.removeAttribute("data-action-bar-fixed");
    };
  }, []);
  return (
    <div ref={bar} className="action-bar" data-testid="action-bar">
      {/* the panel's hint or error, repeated where a phone player looks (the panel may be scrolled away) */}
      {props.hint && (
        <p className="action-bar-hint text-center text-xs text-muted-foreground" aria-hidden>
          {props.hint}
        </p>
      )}
      {props.children}
    </div>
  );
}
