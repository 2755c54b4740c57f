import { expect } from "vitest";
import type { Page } from "playwright-core";
import { axeViolations, describeFindings } from "./axe";
import type { BrowserApp } from "./browser-app";
import { storeTheme, type ThemeChoice } from "./games-helpers";
import { DESKTOP } from "./support";

/**
 * Walks the page with the Tab key from its start and answers where focus went against where it should
 * go: every visible, enabled control that takes focus, in document order. Equal lists mean Tab reaches
 * every control, in order (no control skipped, none reached twice, no focus lost to a hidden element).
 */
export async function tabWalk(page: Page): Promise<{ expected: string[]; reached: string[] }> {
  const expected = await page.evaluate(() => {
    const start = document.createElement("button");
    start.id = "tab-walk-start";
    start.textContent = "start";
    document.body.prepend(start);
    const selector = 'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"]';
    const focusable = [...document.querySelectorAll<HTMLElement>(selector)].filter((el) => {
      if (el === start) return false;
      if (el.tabIndex < 0 || (el as HTMLButtonElement).disabled || el.closest("[inert]")) return false;
      const style = getComputedStyle(el);
      return el.getClientRects().length > 0 && style.visibility !== "hidden" && style.display !== "none";
    });
    const name = (el: HTMLElement) =>
      `${el.tagName.toLowerCase()}:${el.dataset.testid ?? el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 24) ?? ""}`;
    focusable.forEach((el, i) => (el.dataset.tabWalk = `${i} ${name(el)}`));
    start.focus();
    return focusable.map((el) => el.dataset.tabWalk!);
  });
  const reached: string[] = [];
  for (let i = 0; i < expected.length; i++) {
    await page.keyboard.press("Tab");
    reached.push(
      await page.evaluate(() => {
        // a composite widget (a tab list) takes focus as a whole and hands it to its current item
        const holder = document.activeElement?.closest<HTMLElement>("[data-tab-walk]");
        return holder?.dataset.tabWalk ?? `(${document.activeElement?.tagName})`;
      }),
    );
  }
  await page.evaluate(() => {
    document.getElementById("tab-walk-start")?.remove();
    for (const el of document.querySelectorAll<HTMLElement>("[data-tab-walk]")) delete el.dataset.tabWalk;
  });
  return { expected, reached };
}

/** Every multiplier written on the page region (text ending in ×), for the one-format check. */
export async function multipliersIn(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const texts = [...document.querySelectorAll<HTMLElement>(sel)].map((el) => el.innerText);
    return texts.flatMap((t) => t.match(/[\d.,]+\s?×/g) ?? []);
  }, selector);
}

/** The one multiplier format: two decimals, thousands separated ("1.33×", "9,900.00×"). */
export const MULTIPLIER_FORMAT = /^\d{1,3}(,\d{3})*\.\d{2}×$/;

/**
 * The WCAG contrast ratio of the text of each element matching `selector` on what lies behind it (the
 * first opaque background up its ancestors, with the translucent ones above it laid over). axe-core
 * leaves text of one or two characters (a HUD's "3") unjudged, as too short to tell it is text: this
 * measures it. Colours are read through a canvas, which turns any CSS colour (lab, oklch) into sRGB.
 */
export async function textContrasts(page: Page, selector: string): Promise<{ name: string; ratio: number }[]> {
  return page.evaluate((sel) => {
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext("2d", { willReadFrequently: true })!;
    const rgba = (css: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!, a! / 255];
    };
    const over = (top: number[], below: number[]) => [0, 1, 2].map((i) => top[i]! * top[3]! + below[i]! * (1 - top[3]!));
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((c) => {
        const s = c / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    return [...document.querySelectorAll<HTMLElement>(sel)].map((el) => {
      const layers: number[][] = [];
      for (let at: HTMLElement | null = el; at; at = at.parentElement) {
        const layer = rgba(getComputedStyle(at).backgroundColor);
        if (layer[3] > 0) layers.push(layer);
        if (layer[3] === 1) break;
      }
      const behind = layers.reduceRight<number[]>((below, top) => over(top, below), [255, 255, 255]);
      const text = over(rgba(getComputedStyle(el).color), behind);
      const [light, dark] = [luminance(text), luminance(behind)].sort((a, b) => b - a);
      return {
        name: `${el.dataset.testid ?? el.tagName}: ${el.textContent}`,
        ratio: Math.round(((light! + 0.05) / (dark! + 0.05)) * 100) / 100,
      };
    });
  }, selector);
}

/** The two themes every screen is checked in. */
export const MODES: ThemeChoice[] = [{ mode: "dark" }, { mode: "light" }];

/**
 * The rules whose answer depends on the colours: all a theme changes. A screen is checked against every
 * rule in the dark theme, and against these in the light one (its names, roles, order and structure are
 * the same in both).
 */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/** axe-core finds no serious or critical violation on the page: every rule in the dark theme, the colour rules in the light one. */
export async function expectAxeClean(page: Page, where: string, theme: ThemeChoice = { mode: "dark" }): Promise<void> {
  const findings = await axeViolations(page, theme.mode === "light" ? { only: COLOUR_RULES } : {});
  expect(findings, describeFindings(where, findings)).toEqual([]);
}

/** A new guest of the app in `theme`, the guest notice on screen. */
export async function guestIn(app: BrowserApp, theme: ThemeChoice, viewport = DESKTOP) {
  const context = await app.browser.newContext({ viewport });
  await context.addInitScript(storeTheme, theme);
  const page = await context.newPage();
  await page.goto(app.server.baseUrl);
  const notice = page.getByRole("dialog", { name: "You're Playing as a Guest" });
  await notice.waitFor({ timeout: 20_000 });
  return { context, page, notice };
}

export async function closesWithEscape(page: Page, dialog: ReturnType<Page["getByRole"]>): Promise<void> {
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached", timeout: 5_000 });
}
