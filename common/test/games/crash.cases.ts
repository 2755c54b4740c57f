import type { Enumerated, Play, RoundingCases } from "./case-support";
import { curve } from "./limbo.cases";

export const plays: Play[] = [
  { amount: 100, params: { cashOutAt: 2.5 } },
  { amount: 10, params: { cashOutAt: 2 } },
  { amount: 100, params: { cashOutAt: 1.8 } },
];

export const oneCoin: Play = { amount: 1, params: { cashOutAt: 2 } };

export const rounding: RoundingCases = {
  // a solo crash round's crash point follows Limbo's curve
  enumerated: [1.01, 1.5, 2, 10, 1_000].map((x): Enumerated => ({
    bet: `cash out at ${x}×`,
    rtpBet: `cash out at ${x}×`,
    params: () => ({ cashOutAt: x }),
    outcomes: () => curve(Math.round(x * 100)),
  })),
};
