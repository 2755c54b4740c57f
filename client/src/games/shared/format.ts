/** Numbers as the tables show them: coins with thousands separators, multipliers, chances. */
export const formatCoins = (n: number): string => Math.trunc(n).toLocaleString("en-US");

/** 1.98×, 1.0102×, 16.00×, 9,900.00×: two decimals, up to four below 10. */
export const formatMultiplier = (m: number): string =>
  `${m.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: m < 10 ? 4 : 2 })}×`;

export function formatChance(p: number): string {
  const pct = p * 100;
  if (pct === 0) return "0 %";
  if (pct < 0.01) return "< 0.01 %";
  return `${pct.toFixed(pct < 1 ? 4 : 2)} %`;
}

export const formatPercent = (rtp: number, digits = 2): string => `${(rtp * 100).toFixed(digits)} %`;

export const formatTime = (iso: string): string =>
  new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
