import { DEFAULT_THEME_COLOR, DEFAULT_THEME_MODE } from "./constants";

/**
 * Theme colour maths (spec section 2, Settings, and section 4, Theme). Colours are CSS's
 * space-separated "H S% L%" triplets, the form the player record stores.
 */
export type ThemeMode = "light" | "dark";
export const THEME_MODES: readonly ThemeMode[] = ["light", "dark"];

export interface Hsl {
  h: number;
  s: number;
  l: number;
}

/** The ten hues of the colour grid, one per column. */
export const THEME_HUES = [0, 20, 40, 60, 120, 180, 200, 240, 270, 330] as const;
/** Row r (0–9) has saturation 20 + 8r % and lightness 90 − 7r %. */
export const THEME_SATURATIONS = Array.from({ length: 10 }, (_, r) => 20 + 8 * r);
export const THEME_LIGHTNESSES = Array.from({ length: 10 }, (_, r) => 90 - 7 * r);

const HSL_PATTERN = /^\s*(\d{1,3}(?:\.\d+)?)\s+(\d{1,3}(?:\.\d+)?)%\s+(\d{1,3}(?:\.\d+)?)%\s*$/;

/** Parses "H S% L%"; undefined for anything else or out of range. */
export function parseHsl(text: string | null | undefined): Hsl | undefined {
  const m = HSL_PATTERN.exec(text ?? "");
  if (!m) return undefined;
  const [h, s, l] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (h > 360 || s > 100 || l > 100) return undefined;
  return { h, s, l };
}

export const formatHsl = ({ h, s, l }: Hsl): string => `${h} ${s}% ${l}%`;

/** The 10×10 grid, row by row: each row a saturation/lightness pair, each column a hue. */
export const themeColorGrid = (): string[][] =>
  THEME_SATURATIONS.map((s, r) => THEME_HUES.map((h) => formatHsl({ h, s, l: THEME_LIGHTNESSES[r]! })));

/** Accent: hue + 10 (wrapping at 360), lightness capped at 55, saturation floored at 60. */
export function accentColor(color: string): string {
  const c = parseHsl(color) ?? parseHsl(DEFAULT_THEME_COLOR)!;
  return formatHsl({ h: (c.h + 10) % 360, s: Math.max(c.s, 60), l: Math.min(c.l, 55) });
}

/** Chart colour: the same hue and saturation, lightness 5 lower but never below 45. */
export function chartColor(color: string): string {
  const c = parseHsl(color) ?? parseHsl(DEFAULT_THEME_COLOR)!;
  return formatHsl({ h: c.h, s: c.s, l: Math.max(c.l - 5, 45) });
}

/** The two texts drawn on a theme colour ("H S% L%"): a near-black and white. */
export const ON_COLOR = { dark: "222 47% 3%", light: "0 0% 100%" } as const;

/**
 * Text drawn on a colour: whichever of the two `ON_COLOR` texts contrasts more with it. One of black and
 * white always reaches 4.58:1 on any colour, so the better of the two reads at WCAG AA (4.5:1).
 */
export function foregroundOn(color: string): "dark" | "light" {
  const c = parseHsl(color) ?? parseHsl(DEFAULT_THEME_COLOR)!;
  return contrastRatio(c, parseHsl(ON_COLOR.dark)!) >= contrastRatio(c, parseHsl(ON_COLOR.light)!) ? "dark" : "light";
}

/** WCAG 2's relative luminance of a colour. */
export function relativeLuminance(c: Hsl): number {
  const [r, g, b] = hslToRgb(c).map((v) => {
    const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: Hsl, b: Hsl): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The theme colour as text or a thin line on the mode's own surfaces (page, cards, muted boxes, the
 * table's felt): same hue and saturation, the lightness moved (down in light mode, up in dark mode) until
 * it contrasts 6:1 with white or 7:1 with black. Those margins keep 4.5:1 against every surface of the
 * mode, which are all near white (light) or near black (dark).
 */
export function primaryInk(color: string, mode: ThemeMode): string {
  const c = parseHsl(color) ?? parseHsl(DEFAULT_THEME_COLOR)!;
  const reference = mode === "light" ? { h: 0, s: 0, l: 100 } : { h: 0, s: 0, l: 0 };
  const target = mode === "light" ? 6 : 7;
  let l = c.l;
  while (l > 0 && l < 100 && contrastRatio({ ...c, l }, reference) < target) l += mode === "light" ? -1 : 1;
  return formatHsl({ ...c, l });
}

/** HSL to 8-bit RGB (CSS Color 4's algorithm). */
export function hslToRgb({ h, s, l }: Hsl): [number, number, number] {
  const sat = s / 100;
  const light = l / 100;
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    const a = sat * Math.min(light, 1 - light);
    return Math.round(255 * (light - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

export const isThemeMode = (value: unknown): value is ThemeMode => value === "light" || value === "dark";

/**
 * The theme in force: the player's record when there is one, otherwise what this device stored,
 * otherwise the defaults; anything unreadable falls back the same way. A guest's theme is never saved
 * on the server, so for a guest pass no record: the device's choice wins over the record's defaults.
 * The mode is the player's choice (a record's only when `themeModeChosen` says so); until there is one,
 * the device's light/dark preference (`system`), and the default mode only when that is unknown.
 * `modeChosen` tells which.
 */
export function resolveTheme(
  player: { themeMode?: string | null; themeModeChosen?: boolean; themeColor?: string | null } | null | undefined,
  stored: { mode?: string | null; color?: string | null },
  system?: ThemeMode | null,
): { mode: ThemeMode; color: string; modeChosen: boolean } {
  const chosen = [player?.themeModeChosen === false ? undefined : player?.themeMode, stored.mode].find(isThemeMode);
  const mode = chosen ?? system ?? (DEFAULT_THEME_MODE as ThemeMode);
  const color = [player?.themeColor, stored.color].find((c): c is string => parseHsl(c) !== undefined) ?? DEFAULT_THEME_COLOR;
  return { mode, color, modeChosen: chosen !== undefined };
}

/** The words of the grid's hues, column by column, and of its rows, palest first. */
const HUE_WORDS: Record<(typeof THEME_HUES)[number], string> = {
  0: "red",
  20: "orange",
  40: "amber",
  60: "yellow",
  120: "green",
  180: "cyan",
  200: "sky blue",
  240: "blue",
  270: "violet",
  330: "pink",
};
const TONE_WORDS = ["Pale", "Pastel", "Light", "Soft", "Bright", "Vivid", "Strong", "Deep", "Dark", "Darkest"] as const;

const nearest = <T extends number>(values: readonly T[], distance: (v: T) => number): T =>
  values.reduce((best, v) => (distance(v) < distance(best) ? v : best));

/**
 * A colour's name as players read it ("Vivid sky blue"), never its numbers: the tone of the grid's row
 * nearest in lightness, then the word of the grid's hue nearest round the wheel. Each of the grid's 100
 * swatches has a name of its own.
 */
export function colorName(color: string): string {
  const c = parseHsl(color) ?? parseHsl(DEFAULT_THEME_COLOR)!;
  const hue = nearest(THEME_HUES, (h) => Math.min(Math.abs(h - c.h), 360 - Math.abs(h - c.h)));
  const row = THEME_LIGHTNESSES.indexOf(nearest(THEME_LIGHTNESSES, (l) => Math.abs(l - c.l)));
  return `${TONE_WORDS[row]} ${HUE_WORDS[hue]}`;
}

/** The lightest and darkest surface of each mode a theme-coloured button sits on (client/src/app/styles.css). */
export const MODE_SURFACES: Record<ThemeMode, readonly string[]> = {
  light: ["0 0% 100%", "220 20% 97%", "220 16% 92%"],
  dark: ["224 30% 7%", "224 26% 11%", "224 20% 17%"],
};

/**
 * The edge of a button filled with the theme colour: the colour itself where the fill already stands out
 * from every surface of the mode (3:1, WCAG's contrast for a control's shape), otherwise the colour as
 * ink (`primaryInk`), so a pale swatch's button keeps a visible outline on a pale page.
 */
export function primaryEdge(color: string, mode: ThemeMode): string {
  const c = parseHsl(color) ?? parseHsl(DEFAULT_THEME_COLOR)!;
  const standsOut = MODE_SURFACES[mode].every((s) => contrastRatio(c, parseHsl(s)!) >= 3);
  return standsOut ? formatHsl(c) : primaryInk(color, mode);
}
