import { join } from "node:path";
import { defineConfig } from "rolldown";

const root = join(import.meta.dirname, "..");

/**
 * The production build of the server (`npm run build:server`): each entry point below and everything
 * it imports from this repository (`server/src`, `common/src`) compiled into one ES
 * module in `server/dist/`, with source maps. Packages stay imports, resolved from `node_modules` at
 * run time (the image installs the production dependencies only).
 *
 * Rolldown compiles TypeScript with oxc, the transformer vitest runs the test suite through, and reads
 * the decorator settings from the tsconfig: legacy decorators with `design:type` metadata for TypeORM's
 * entities and @colyseus/schema's state classes, and class fields assigned in the constructor
 * (`useDefineForClassFields: false`), as the schema classes need.
 */
export default defineConfig({
  input: {
    main: join(root, "server/src/main.ts"),
    migrate: join(root, "server/src/platform/db/migrate-cli.ts"),
    audit: join(root, "server/src/ops/audit.ts"),
    admin: join(root, "server/src/admin/cli.ts"),
  },
  platform: "node",
  tsconfig: join(root, "server/tsconfig.json"),
  transform: { target: "node20" },
  // A bare import is a package, except our own workspace (TypeScript sources) and oxc's decorator
  // helpers, which are bundled in.
  external: (id) => /^[\w@]/.test(id) && !id.startsWith("@casino/") && !id.startsWith("@oxc-project/runtime"),
  output: {
    dir: join(root, "server/dist"),
    format: "esm",
    sourcemap: true,
    cleanDir: true,
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
  },
});
