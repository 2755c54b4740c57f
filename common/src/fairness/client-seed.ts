import { z } from "zod";

/** A player's client seed, as every game, table and verifier takes it. */
export const clientSeed = z
  .string()
  .trim()
  .min(1, "clientSeed is required")
  .max(64, "clientSeed must be at most 64 characters")
  .regex(/^[\x21-\x7e]+$/, "clientSeed must be printable ASCII without spaces");
