import { existsSync, mkdirSync } from "node:fs";
import { chromium, type Browser, type Frame, type Page } from "playwright-core";

/** Chromium's switches for the tests; `localhost`: the loopback address localhost resolves to (the file's fake Discord host). */
export const chromiumArgs = (localhost?: string): string[] => [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  // Discord's CDN (avatars) is not reachable from tests: fail its lookups at once instead of waiting.
  "--host-resolver-rules=MAP *.discordapp.com ~NOTFOUND, MAP discord.com ~NOTFOUND" + (localhost ? `, MAP localhost ${localhost}` : ""),
  "--autoplay-policy=no-user-gesture-required",
];

/**
 * Real headless Chromium from the machine's packages, never a downloaded browser: `CHROMIUM_PATH`, else
 * Debian's `chromium-headless-shell` (Chromium's headless shell: the same engine without the desktop
 * browser around it, about a third less CPU per page, which is most of the browser tier's time), else the
 * full `chromium`.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ??
  "/usr/bin/chromium";

export const launchChromium = (options: { localhost?: string } = {}): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM_PATH, args: chromiumArgs(options.localhost) });

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** Where browser tests write screenshots: an ignored folder. */
export const ARTIFACTS = "test-artifacts";

/** Screenshots go to the ignored test-artifacts/ folder. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}/${name}.png` });
}

/** The player id inside the guest session token this page stored. */
export async function storedPlayerId(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem("casino-session-token"));
  if (!token) throw new Error("no session token stored");
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()).sub as string;
}

/** The guest session token this page stored. */
export async function storedToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem("casino-session-token"));
  if (!token) throw new Error("no session token stored");
  return token;
}

/** A guest's first visit: the notice is dismissed and the lobby is on screen. */
export async function enterAsGuest(page: Page, baseUrl: string): Promise<void> {
  await page.goto(baseUrl);
  await page.getByRole("button", { name: "Got it, Continue as Guest" }).click({ timeout: 20_000 });
  await page.getByTestId("lobby-heading").waitFor();
}

/**
 * The layout shifts of the page (or frame) since it loaded (the browser's own `layout-shift` entries, not
 * those right after an input) that moved an element outside `within` (a CSS selector: what may move
 * inside it is its own affair), each as its size and the elements that moved, with their tops before and after.
 */
export const layoutShifts = (page: Page | Frame, within: string) =>
  page.evaluate(
    (within) =>
      new Promise<string[]>((resolve) => {
        type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
        type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Source[] };
        const seen: Shift[] = [];
        const observer = new PerformanceObserver((list) => seen.push(...(list.getEntries() as Shift[])));
        observer.observe({ type: "layout-shift", buffered: true });
        // The buffered entries are delivered in a task of their own: two frames later they have come.
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            seen.push(...(observer.takeRecords() as Shift[]));
            observer.disconnect();
            const name = (node: Node | null | undefined) =>
              node instanceof Element ? (node.getAttribute("data-testid") ?? node.tagName.toLowerCase()) : String(node?.nodeName);
            // What moved and where: "favourites 320→380" (its top, in CSS pixels).
            const moved = (x: Source) => `${name(x.node)} ${Math.round(x.previousRect.y)}→${Math.round(x.currentRect.y)}`;
            const outside = (node: Node | null | undefined) => !(node instanceof Element && node.closest(within));
            resolve(
              seen
                .filter((s) => !s.hadRecentInput && s.sources.some((x) => outside(x.node)))
                .map((s) => `${s.value.toFixed(3)} at ${Math.round(s.startTime)} ms: ${s.sources.map(moved).join(", ")}`),
            );
          }),
        );
      }),
    within,
  );
