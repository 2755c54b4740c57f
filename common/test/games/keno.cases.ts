import { MAX_PICKS, RISKS } from "../../src/games/keno/engine";
import type { Play, RoundingCases, Sampled } from "./case-support";

export const plays: Play[] = [
  { amount: 100, params: { picks: [1, 2, 3, 4, 5], risk: "high" }, verifierSays: /drawn \(in order\): (\d+, ){9}\d+/ },
  { amount: 10, params: { picks: [5, 10, 15, 20, 25, 30, 35, 40], risk: "classic" } },
  { amount: 100, params: { picks: [1, 7, 13, 22, 38], risk: "medium" } },
];

export const oneCoin: Play = { amount: 1, params: { picks: [5, 10, 15, 20, 25, 30, 35, 40], risk: "classic" } };

export const rounding: RoundingCases = {
  sampled: RISKS.flatMap((risk) =>
    [1, 4, MAX_PICKS].map((n): Sampled => ({
      bet: `${risk}, ${n} picks`,
      params: () => ({ risk, picks: Array.from({ length: n }, (_, i) => i + 1) }),
    })),
  ),
};
