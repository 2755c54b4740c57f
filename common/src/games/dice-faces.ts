import { pickIndex, type Rng } from "../fairness/stream";

/** Six-sided dice for the table dice games: one float per die, face = floor(f × 6) + 1 (game-rules B3). */
export const DIE_FACES = 6;

export function rollDie(rng: Rng): number {
  return pickIndex(rng, DIE_FACES) + 1;
}

export function rollDice(rng: Rng, count: number): number[] {
  return Array.from({ length: count }, () => rollDie(rng));
}

/** The float that makes `rollDie` land on `face`: the middle of the face's interval, for hand-made rounds. */
export const floatForFace = (face: number): number => (face - 0.5) / DIE_FACES;

/** Every ordered outcome of `count` dice (6^count of them, equally likely), for exact enumeration. */
export function allOrderedRolls(count: number): number[][] {
  let rolls: number[][] = [[]];
  for (let i = 0; i < count; i++) {
    rolls = rolls.flatMap((r) => Array.from({ length: DIE_FACES }, (_, f) => [...r, f + 1]));
  }
  return rolls;
}
