/** The TypeORM data source options, which live with the server's database code (server/src/platform/db/data-source.ts). */
export * from "./server/src/platform/db/data-source";
