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

/**
 * Text drawn on a colour: dark on light colours, white on dark ones, chosen by the WCAG relative
 * luminance of the colour (the contrast with black beats the contrast with white above ~0.18).
 */
export function foregroundOn(color: string): "dark" | "light" {
  const c = parseHsl(color) ?? parseHsl(DEFAULT_THEME_COLOR)!;
  const [r, g, b] = hslToRgb(c).map((v) => {
    const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) ? "dark" : "light";
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
 */
export function resolveTheme(
  player: { themeMode?: string | null; themeColor?: string | null } | null | undefined,
  stored: { mode?: string | null; color?: string | null },
): { mode: ThemeMode; color: string } {
  const mode = [player?.themeMode, stored.mode].find(isThemeMode) ?? (DEFAULT_THEME_MODE as ThemeMode);
  const color = [player?.themeColor, stored.color].find((c): c is string => parseHsl(c) !== undefined) ?? DEFAULT_THEME_COLOR;
  return { mode, color };
}
