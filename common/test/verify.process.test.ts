import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../src/fairness/stream";
import { DAILY_SPIN } from "../src/constants";
import { formatVerification, verifyRound } from "../src/verifiers/verify";
import { verifierArgs as args, verifierInput as input, verifierSeeds as seeds, verifyCli as cli } from "./helpers";

/**
 * The verify command started as a process (its entry, the npm script, the exit codes it sets): a second
 * or more each, so in the stats tier (`npm run test:stats`); verify.test.ts runs the same command in-process.
 */

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;

describe("npm run verify", () => {
  const process_ = (extra: string[]) =>
    run(process.execPath, ["--import", "tsx", "common/scripts/verify.ts", ...extra], { cwd: ROOT }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
    );

  it("runs as a process: prints the round and sets the exit code (2 for a bad request, 1 for a seed that does not match)", async () => {
    const ok = await process_([...args, "--server-seed-hash", sha256Hex(input.serverSeed)]);
    expect([ok.code, ok.stdout]).toEqual([0, (await cli([...args, "--server-seed-hash", sha256Hex(input.serverSeed)])).stdout]);
    const mismatch = await process_([...args, "--server-seed-hash", sha256Hex("some other seed")]);
    expect(mismatch.code).toBe(1);
    const bad = await process_(["--game", "dice"]);
    expect([bad.code, bad.stderr.split("\n")[0]]).toEqual([2, "missing --server-seed, --client-seed, --nonce"]);
  });

  it("runs as the npm script, and verifies a daily spin", async () => {
    const r = await run(
      "npm",
      [
        "run",
        "-s",
        "verify",
        "--",
        "--server-seed",
        input.serverSeed,
        "--client-seed",
        input.clientSeed,
        "--nonce",
        "5",
        "--game",
        DAILY_SPIN,
      ],
      { cwd: ROOT },
    );
    expect(r.stdout.trimEnd()).toBe(formatVerification(verifyRound({ ...seeds(5), game: DAILY_SPIN })));
  });
});
