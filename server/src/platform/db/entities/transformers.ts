import type { ValueTransformer } from "typeorm";

/** bigint columns come back as strings from pg and numbers from PGlite: coins are always numbers here. */
export const bigintToNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | number | null) => (value === null ? null : Number(value)),
};
