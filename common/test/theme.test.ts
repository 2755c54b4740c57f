import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  accentColor,
  chartColor,
  colorName,
  contrastRatio,
  MODE_SURFACES,
  primaryEdge,
  foregroundOn,
  ON_COLOR,
  primaryInk,
  formatHsl,
  hslToRgb,
  parseHsl,
  resolveTheme,
  themeColorGrid,
  THEME_HUES,
  type Hsl,
} from "../src/theme";
import { DEFAULT_THEME_COLOR } from "../src/constants";
import { themeColor } from "../src/api";

describe("the colour grid of the settings page", () => {
  const grid = themeColorGrid();

  it("has 10 rows of the spec's 10 hues", () => {
    expect(THEME_HUES).toEqual([0, 20, 40, 60, 120, 180, 200, 240, 270, 330]);
    expect(grid).toHaveLength(10);
    for (const row of grid) expect(row.map((c) => parseHsl(c)!.h)).toEqual([...THEME_HUES]);
  });

  it("steps saturation 20 → 92 by 8 and lightness 90 → 27 by 7, row by row", () => {
    expect(grid.map((row) => parseHsl(row[0])!.s)).toEqual([20, 28, 36, 44, 52, 60, 68, 76, 84, 92]);
    expect(grid.map((row) => parseHsl(row[0])!.l)).toEqual([90, 83, 76, 69, 62, 55, 48, 41, 34, 27]);
  });

  it("holds the default colour, and every swatch is a colour the server accepts", () => {
    expect(grid.flat()).toContain(DEFAULT_THEME_COLOR);
    for (const c of grid.flat()) expect(themeColor.safeParse(c).success).toBe(true);
    expect(new Set(grid.flat()).size).toBe(100);
  });
});

describe("derived colours", () => {
  it("accent: hue + 10, lightness capped at 55, saturation floored at 60", () => {
    expect(accentColor("200 60% 55%")).toBe("210 60% 55%");
    expect(accentColor("0 20% 90%")).toBe("10 60% 55%");
    expect(accentColor("330 92% 27%")).toBe("340 92% 27%");
    expect(accentColor("355 70% 40%")).toBe("5 70% 40%");
    expect(accentColor("350 70% 40%")).toBe("0 70% 40%");
  });

  it("chart: same hue and saturation, lightness 5 lower with a floor of 45", () => {
    expect(chartColor("200 60% 55%")).toBe("200 60% 50%");
    expect(chartColor("40 36% 76%")).toBe("40 36% 71%");
    expect(chartColor("120 68% 48%")).toBe("120 68% 45%");
    expect(chartColor("270 92% 27%")).toBe("270 92% 45%");
    expect(chartColor("60 60% 50%")).toBe("60 60% 45%");
  });

  it("falls back to the default colour for an unreadable one", () => {
    expect(accentColor("red")).toBe(accentColor(DEFAULT_THEME_COLOR));
    expect(chartColor("")).toBe(chartColor(DEFAULT_THEME_COLOR));
  });

  it("puts dark text on light colours and white text on dark ones", () => {
    expect(foregroundOn("60 92% 90%")).toBe("dark");
    expect(foregroundOn("240 92% 27%")).toBe("light");
    expect(foregroundOn("0 0% 100%")).toBe("dark");
    expect(foregroundOn("0 0% 0%")).toBe("light");
  });
});

describe("HSL text", () => {
  it("parses and prints the stored form", () => {
    expect(parseHsl("200 60% 55%")).toEqual({ h: 200, s: 60, l: 55 });
    expect(formatHsl({ h: 200, s: 60, l: 55 })).toBe("200 60% 55%");
    expect(parseHsl("361 60% 55%")).toBeUndefined();
    expect(parseHsl("200 60 55")).toBeUndefined();
    expect(parseHsl(null)).toBeUndefined();
  });

  it("converts to RGB like CSS does", () => {
    expect(hslToRgb({ h: 0, s: 100, l: 50 })).toEqual([255, 0, 0]);
    expect(hslToRgb({ h: 120, s: 100, l: 25 })).toEqual([0, 128, 0]);
    expect(hslToRgb({ h: 200, s: 60, l: 55 })).toEqual([71, 163, 209]);
  });
});

describe("which theme is in force", () => {
  it("takes the player's record first, then the device, then the defaults", () => {
    expect(resolveTheme({ themeMode: "light", themeColor: "0 20% 90%" }, { mode: "dark", color: "120 68% 48%" })).toEqual({
      mode: "light",
      color: "0 20% 90%",
      modeChosen: true,
    });
    expect(resolveTheme(null, { mode: "light", color: "120 68% 48%" })).toEqual({ mode: "light", color: "120 68% 48%", modeChosen: true });
    expect(resolveTheme(undefined, {})).toEqual({ mode: "dark", color: DEFAULT_THEME_COLOR, modeChosen: false });
  });

  it("skips values that are not a mode or a colour", () => {
    expect(resolveTheme({ themeMode: "sepia", themeColor: "blue" }, { mode: "light", color: "nope" })).toEqual({
      mode: "light",
      color: DEFAULT_THEME_COLOR,
      modeChosen: true,
    });
  });

  it("follows the device's light/dark preference until the player chooses a mode", () => {
    expect(resolveTheme(null, {}, "light")).toEqual({ mode: "light", color: DEFAULT_THEME_COLOR, modeChosen: false });
    expect(resolveTheme(null, {}, "dark")).toMatchObject({ mode: "dark", modeChosen: false });
    // a record's default mode is no choice
    expect(resolveTheme({ themeMode: "dark", themeModeChosen: false }, {}, "light")).toMatchObject({ mode: "light", modeChosen: false });
    // a choice, the record's or the device's, wins over the preference
    expect(resolveTheme({ themeMode: "dark", themeModeChosen: true }, {}, "light")).toMatchObject({ mode: "dark", modeChosen: true });
    expect(resolveTheme(null, { mode: "dark" }, "light")).toMatchObject({ mode: "dark", modeChosen: true });
  });
});

/**
 * The client's colour tokens (client/src/app/styles.css) read in each mode with a theme colour applied,
 * as the browser resolves them: the mode's block over the root's, and `var(--primary-hue)` replaced.
 */
function tokens(mode: "light" | "dark", color: string): Record<string, Hsl> {
  const css = readFileSync(new URL("../../client/src/app/styles.css", import.meta.url), "utf8");
  const block = (selector: string) => {
    const body = css.match(new RegExp(`\\n${selector.replace(".", "\\.")} \\{([^}]*)\\}`))![1]!;
    return Object.fromEntries([...body.matchAll(/--([\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]));
  };
  const raw = { ...block(":root"), ...(mode === "dark" ? block(".dark") : {}) };
  const hue = String(parseHsl(color)!.h);
  const out: Record<string, Hsl> = {};
  for (const [name, value] of Object.entries(raw)) {
    const parsed = parseHsl(value.replace("var(--primary-hue)", hue));
    if (parsed) out[name] = parsed;
  }
  return out;
}

describe("contrast of the colour tokens (WCAG AA, 4.5:1) in both modes, for every swatch of the grid", () => {
  const swatches = themeColorGrid().flat();
  const surfaces = ["background", "card", "muted", "felt"];
  const texts = ["foreground", "muted-foreground", "positive", "destructive", "warning"];

  it.each(["light", "dark"] as const)("%s: every text token reads on every surface, the felt in the swatch's hue", (mode) => {
    const worst: Record<string, number> = {};
    for (const color of swatches) {
      const t = tokens(mode, color);
      for (const surface of surfaces)
        for (const text of texts) {
          const key = `${text} on ${surface}`;
          worst[key] = Math.min(worst[key] ?? 21, contrastRatio(t[text]!, t[surface]!));
        }
      // a destructive fill (the error toast) carries its own text
      const key = "destructive-foreground on destructive";
      worst[key] = Math.min(worst[key] ?? 21, contrastRatio(t["destructive-foreground"]!, t.destructive!));
    }
    for (const [pair, ratio] of Object.entries(worst)) expect(ratio, pair).toBeGreaterThanOrEqual(4.5);
  });

  it.each(["light", "dark"] as const)("%s: the theme colour as ink reads on every surface", (mode) => {
    for (const color of swatches) {
      const t = tokens(mode, color);
      const ink = parseHsl(primaryInk(color, mode))!;
      expect(ink.h).toBe(parseHsl(color)!.h);
      for (const surface of surfaces) expect(contrastRatio(ink, t[surface]!), `${color} on ${surface}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("the text on the theme colour reads on every swatch", () => {
    for (const color of swatches) {
      const on = parseHsl(ON_COLOR[foregroundOn(color)])!;
      expect(contrastRatio(on, parseHsl(color)!), color).toBeGreaterThanOrEqual(4.5);
    }
  });

  it.each(["light", "dark"] as const)(
    "%s: the text on a theme-coloured button (the accent of the page) reads at 4.5:1 on each of the 100 swatches",
    (mode) => {
      for (const color of swatches) {
        // as the page has it in this mode: the fill the button is drawn with and the text the page sets on it
        const t = { ...tokens(mode, color), primary: parseHsl(color)!, "primary-foreground": parseHsl(ON_COLOR[foregroundOn(color)])! };
        expect(contrastRatio(t["primary-foreground"], t.primary), `${color} (${colorName(color)})`).toBeGreaterThanOrEqual(4.5);
      }
    },
  );

  it.each(["light", "dark"] as const)(
    "%s: a theme-coloured button's shape stands out (3:1) from every surface, a pale swatch's too",
    (mode) => {
      const outlined: string[] = [];
      for (const color of swatches) {
        const t = tokens(mode, color);
        const edge = parseHsl(primaryEdge(color, mode))!;
        for (const surface of ["background", "card", "muted"])
          expect(contrastRatio(edge, t[surface]!), `${color} on ${surface}`).toBeGreaterThanOrEqual(3);
        if (primaryEdge(color, mode) !== color) outlined.push(color);
      }
      // the palest row needs its outline in light mode, the darkest in dark mode
      expect(outlined).toContain(mode === "light" ? "0 20% 90%" : "240 92% 27%");
    },
  );

  it("knows the modes' surfaces as the stylesheet has them", () => {
    for (const mode of ["light", "dark"] as const) {
      const t = tokens(mode, DEFAULT_THEME_COLOR);
      expect(MODE_SURFACES[mode]).toEqual([t.card, t.background, t.muted].map((c) => formatHsl(c!)).sort(byLightness(mode)));
    }
  });

  it("computes WCAG's ratio", () => {
    expect(contrastRatio({ h: 0, s: 0, l: 0 }, { h: 0, s: 0, l: 100 })).toBeCloseTo(21, 5);
    expect(contrastRatio({ h: 0, s: 0, l: 50 }, { h: 0, s: 0, l: 50 })).toBe(1);
  });
});

const byLightness = (mode: "light" | "dark") => (a: string, b: string) => (mode === "light" ? -1 : 1) * (parseHsl(a)!.l - parseHsl(b)!.l);

describe("the swatches' names", () => {
  const swatches = themeColorGrid().flat();

  it("names each of the 100 swatches in words, each name its own, with no numbers", () => {
    const names = swatches.map(colorName);
    expect(new Set(names).size).toBe(100);
    for (const name of names) expect(name).toMatch(/^[A-Z][a-z]+ [a-z ]+$/);
  });

  it("names by tone (the row) and hue (the column)", () => {
    expect(colorName(DEFAULT_THEME_COLOR)).toBe("Vivid sky blue");
    expect(colorName("0 20% 90%")).toBe("Pale red");
    expect(colorName("330 92% 27%")).toBe("Darkest pink");
    expect(colorName("120 44% 69%")).toBe("Soft green");
  });

  it("names a colour off the grid by the nearest hue round the wheel and the nearest tone", () => {
    expect(colorName("355 60% 55%")).toBe("Vivid red");
    expect(colorName("130 60% 55%")).toBe("Vivid green");
    expect(colorName("not a colour")).toBe(colorName(DEFAULT_THEME_COLOR));
  });
});
