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

interface PgQueryable {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** Data sources on embedded PGlite (see Database): no named statements there. */
const embeddedSources = new WeakSet<object>();
export const markEmbedded = (dataSource: object): void => void embeddedSources.add(dataSource);

/**
 * Data sources behind a transaction pooler (server/src/platform/db/pooler.ts): no named statements there either,
 * as the next transaction may run on a connection that never prepared them.
 */
const pooledSources = new WeakSet<object>();
export const markPooled = (dataSource: object): void => void pooledSources.add(dataSource);
/** Whether statements may be prepared by name on the connections of `dataSource`. */
export const keepsNamedStatements = (dataSource: object): boolean => !pooledSources.has(dataSource);

const statementNames = new Map<string, string>();
/** The name of the prepared statement of `text`, the same on every connection. */
export const statementName = (text: string): string => {
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `s${statementNames.size + 1}`));
  return name;
};

/**
 * Like `sqlRows`, for the hot statements of fixed text (the money path's reads, the consumers): on
 * PostgreSQL a named prepared statement, parsed and planned once per connection rather than at every
 * call, sent straight to the driver (without TypeORM's query wrapper, whose errors the error helpers
 * read the same way). Never for text built per call: each distinct text stays prepared on every
 * connection. On PGlite it is `sqlRows`; behind a transaction pooler the statement goes unnamed.
 */
export async function sqlPrepared<T = Record<string, unknown>>(em: EntityManager, text: string, params: unknown[] = []): Promise<T[]> {
  const connection = embeddedSources.has(em.connection)
    ? undefined
    : ((em.queryRunner as { databaseConnection?: PgQueryable } | undefined)?.databaseConnection ??
      (em.queryRunner ? undefined : (em.connection.driver as unknown as { master?: PgQueryable }).master));
  if (!connection) return sqlRows<T>(em, text, params);
  const named = keepsNamedStatements(em.connection) ? { name: statementName(text) } : {};
  return (await connection.query({ ...named, text, values: params })).rows as T[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The text has the form of a uuid (a player id, a round id): worth asking PostgreSQL's uuid columns about. */
export const isUuid = (text: string): boolean => UUID.test(text);
