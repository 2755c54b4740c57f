import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError, loadDeploymentAccess } from "../platform/config";
import { printAnswer } from "../platform/log";
import { createGuestTokens, createInstanceTokens } from "./guest-tokens";

/**
 * `npm run loadtest:tokens -- --count 10000 --out tokens.txt`, with DATABASE_URL and SESSION_SECRET
 * of the target deployment in the environment: guests created in its database and their session
 * tokens, one a line, for `npm run loadtest -- --tokens tokens.txt`. With `--instance-size 8`, players
 * as Discord would have them instead, in activity instances of 8, each line `<token> <instance id>`
 * (for the `reactions` scenario).
 */
const { values } = parseArgs({
  options: {
    count: { type: "string", default: "1000" },
    out: { type: "string", default: "tokens.txt" },
    "ttl-hours": { type: "string", default: "24" },
    "instance-size": { type: "string" },
  },
});
let access: ReturnType<typeof loadDeploymentAccess>;
try {
  access = loadDeploymentAccess();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  printAnswer(`${error.message} (DATABASE_URL and SESSION_SECRET of the target deployment must be set)`, "stderr");
  process.exit(2);
}
const count = Number(values.count);
const started = performance.now();
const instanceSize = values["instance-size"] ? Number(values["instance-size"]) : null;
const tokens = instanceSize
  ? await createInstanceTokens(access.databaseUrl, access.sessionSecret, count, {
      instanceSize,
      ttlHours: Number(values["ttl-hours"]),
      onProgress: (n) => printAnswer(`${n} players…`),
    })
  : await createGuestTokens(access.databaseUrl, access.sessionSecret, count, {
      ttlHours: Number(values["ttl-hours"]),
      onProgress: (n) => printAnswer(`${n} guests…`),
    });
writeFileSync(values.out, tokens.join("\n") + "\n", { mode: 0o600 });
printAnswer(
  `${count} ${instanceSize ? "instance members" : "guests"} and tokens written to ${values.out} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(0);
