import type { EntityManager } from "typeorm";

/**
 * Runs SQL and always hands back the rows. TypeORM's postgres driver answers UPDATE/DELETE … RETURNING
 * as [rows, affectedCount] but SELECT and INSERT as rows; this hides the difference.
 */
export async function sqlRows<T = Record<string, unknown>>(em: EntityManager, text: string, params: unknown[] = []): Promise<T[]> {
  const result = await em.query(text, params);
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === "number") {
    return result[0] as T[];
  }
  return result as T[];
}
