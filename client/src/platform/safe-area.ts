/**
 * Discord's safe-area insets (`--discord-safe-area-inset-*`, set by Discord's mobile clients) are empty
 * until the first layout or orientation event (embedded-app-sdk issue 304). While they are, on a phone,
 * the page uses the values reported to work around it: 48 px at the top in portrait, 64 px on the right
 * in landscape. As soon as Discord fills any of them the fallback goes away.
 */
const SIDES = ["top", "right", "bottom", "left"] as const;
const FALLBACK_PORTRAIT = { top: "48px", right: "0px", bottom: "0px", left: "0px" };
const FALLBACK_LANDSCAPE = { top: "0px", right: "64px", bottom: "0px", left: "0px" };

export function discordInsetsFilled(root: HTMLElement = document.documentElement): boolean {
  const style = getComputedStyle(root);
  return SIDES.some((side) => style.getPropertyValue(`--discord-safe-area-inset-${side}`).trim() !== "");
}

function apply(root: HTMLElement): void {
  const filled = discordInsetsFilled(root);
  const fallback = innerWidth > innerHeight ? FALLBACK_LANDSCAPE : FALLBACK_PORTRAIT;
  for (const side of SIDES) {
    const name = `--safe-fallback-${side}`;
    const want = filled ? "" : fallback[side];
    // Only real changes: this very style attribute is watched.
    if (root.style.getPropertyValue(name) === want) continue;
    if (want) root.style.setProperty(name, want);
    else root.style.removeProperty(name);
  }
}

/** On a Discord phone launch: keeps the fallback in place until Discord's own insets arrive. */
export function watchSafeArea(platform: string): void {
  if (platform !== "mobile") return;
  const root = document.documentElement;
  apply(root);
  if (discordInsetsFilled(root)) return;
  const again = () => {
    apply(root);
    if (discordInsetsFilled(root)) {
      observer.disconnect();
      removeEventListener("resize", again);
    }
  };
  // Discord sets them on the root's style or in a style sheet of its own: watch both, and the layout.
  const observer = new MutationObserver(again);
  observer.observe(root, { attributes: true, attributeFilter: ["style"] });
  observer.observe(document.head, { childList: true, subtree: true, characterData: true });
  addEventListener("resize", again);
}
