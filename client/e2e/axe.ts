import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

/** axe-core (pinned in client/package.json), injected into the page under test as its own script. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  /** each failing element: its selector and axe's reason */
  nodes: string[];
}

/**
 * Runs axe over the page as it is now and answers its violations of WCAG 2.x A/AA (and axe's best
 * practices) at `impact` serious or critical. The script is evaluated through the browser's debugging
 * channel, so the page's own Content-Security-Policy stays in force for everything else. The page is
 * read once its finite animations have ended (a dialog still fading in would measure as low contrast);
 * the browser tests ask for reduced motion, so the app draws each state at once.
 */
export async function axeViolations(page: Page, options: { only?: string[] } = {}): Promise<AxeFinding[]> {
  // once per document: the page keeps it until it navigates
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  await animationsSettled(page);
  return runAxe(page, options.only ?? null);
}

/**
 * Waits for every finite CSS or Web animation on the page to end (spinners that loop are left alone),
 * after two frames: a style change just made (a theme switched by the device's preference) starts its
 * CSS transitions when the browser next renders, and a check before that read the text in the old
 * theme's colour on the new theme's cards (1.07:1 on the Hold'em table, once).
 */
async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
    await Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime)))
        .map((a) => a.finished.catch(() => undefined)),
    );
  });
}

async function runAxe(page: Page, only: string[] | null): Promise<AxeFinding[]> {
  const found = await page.evaluate(async (only) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run(document, {
      resultTypes: ["violations"],
      ...(only ? { runOnly: { type: "rule", values: only } } : {}),
    });
    return result.violations.map((v) => ({
      id: v.id as string,
      impact: v.impact as string | null,
      help: v.help as string,
      nodes: (v.nodes as any[]).map((n) => `${(n.target as string[]).join(" ")}: ${(n.failureSummary as string).replace(/\s+/g, " ")}`),
    }));
  }, only);
  return found.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** The findings as a readable assertion message. */
export const describeFindings = (where: string, findings: AxeFinding[]): string =>
  findings.length === 0
    ? `${where}: clean`
    : `${where}:\n${findings.map((f) => `  ${f.impact} ${f.id} (${f.help})\n    ${f.nodes.slice(0, 6).join("\n    ")}`).join("\n")}`;
