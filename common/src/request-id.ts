import { z } from "zod";

/**
 * The id a client gives each request that moves coins or changes seeds, in the room and over REST:
 * one rule for both. Its own module, so the REST schemas and the room protocol can both use it
 * without importing each other.
 */
export const requestId = z
  .string()
  .min(8, "requestId must be 8–64 characters")
  .max(64, "requestId must be 8–64 characters")
  .regex(/^[A-Za-z0-9_:-]+$/, "requestId may hold letters, digits, '_', ':' and '-' only");
