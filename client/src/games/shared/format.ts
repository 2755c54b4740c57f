/** Numbers as the tables show them: coins and multipliers in the shared formats, chances. */
export { formatCoins, formatMultiplier, paidText, payoutText } from "@casino/common/format";

export function formatChance(p: number): string {
  const pct = p * 100;
  if (pct === 0) return "0 %";
  if (pct < 0.01) return "< 0.01 %";
  return `${pct.toFixed(pct < 1 ? 4 : 2)} %`;
}

export const formatPercent = (rtp: number, digits = 2): string => `${(rtp * 100).toFixed(digits)} %`;

export const formatTime = (iso: string): string =>
  new Date(iso).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
