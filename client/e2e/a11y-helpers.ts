import type { Page } from "playwright-core";

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
