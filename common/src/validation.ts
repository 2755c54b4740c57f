import type { z } from "zod";

/** A precise, human message from a zod error: "amount: Too small: expected number to be >=1". */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ");
}
