import { PayTable } from "../shared/GameHelp";
import { formatChance, formatMultiplier } from "../shared/format";

/** The pay table of both crash modes: the chance that the multiplier reaches a cash-out (99 % ÷ x). */
export const CASH_OUT_CHANCES = (
  <PayTable
    head={["Cash-out", "Chance to reach it"]}
    rows={[1.01, 1.5, 2, 5, 10, 100].map((t) => ({ label: formatMultiplier(t), pays: formatChance(0.99 / t) }))}
  />
);
