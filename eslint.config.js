import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

/**
 * Lint rules, and the architecture's import boundaries written down where a machine checks them:
 * common imports nothing of ours and no I/O; server and client never import each other.
 */
/** Import patterns that reach `target`'s code, by package name or by a relative path into its folder. */
const into = (target, from) => ({
  group: [
    `@casino/${target}`,
    `@casino/${target}/*`,
    `**/${target}/src/**`,
    `../${target}/**`,
    `../../${target}/**`,
    `../../../${target}/**`,
  ],
  message: `${from} must not import ${target}`,
});

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      ".tsbuild/**",
      "data/**",
      "test-artifacts/**",
      "coverage/**",
      ".ci/**",
      "client/public/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: "module" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "off",
      "no-console": "off",
      eqeqeq: ["error", "smart"],
    },
  },
  {
    files: ["common/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            into("server", "common"),
            into("client", "common"),
            {
              group: ["node:*", "fs", "path", "crypto", "http", "net", "pg", "ioredis", "typeorm", "express", "react", "react-dom"],
              message: "common is pure: no Node, DOM, database or network",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["common/scripts/**/*.ts", "common/test/**/*.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: ["server/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [into("client", "server")] }] },
  },
  {
    // The server writes through its one log (server/src/platform/log.ts). A command-line tool's report on
    // standard output is its answer, not a log line.
    files: ["server/src/**/*.ts"],
    ignores: ["server/src/**/*-cli.ts", "server/src/ops/audit.ts", "server/src/admin/cli.ts"],
    rules: { "no-console": "error" },
  },
  {
    files: ["client/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "no-restricted-imports": ["error", { patterns: [into("server", "client")] }],
    },
  },
  {
    // Browser tests drive the real server through the shared test harness.
    files: ["client/e2e/**/*.ts"],
    rules: { "no-restricted-imports": "off" },
  },
);
