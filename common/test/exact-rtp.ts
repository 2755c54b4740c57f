import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import type { GameId } from "../src/catalogue";
import type { RtpRow } from "../src/rtp/types";

/**
 * Every engine's exact RTP, computed once per test run (the slowest computations of the common tests)
 * by this global setup, and read by every test that compares with it: the static RTP table, docs/rtp.md,
 * the games' tests and the rounding proof. Both common projects (`common` and `common-stats`) list this
 * setup, and Vitest runs a project's global setup in that project's own module runner, so each loads this
 * file anew: the rows are kept on the main process's global object, and the second project reuses them.
 */
declare module "vitest" {
  export interface ProvidedContext {
    exactRtp: [GameId, RtpRow[]][];
  }
}

const COMPUTED = Symbol.for("common/test/exact-rtp");
const shared = globalThis as typeof globalThis & { [COMPUTED]?: Promise<[GameId, RtpRow[]][]> };

export default async function setup(project: TestProject): Promise<void> {
  shared[COMPUTED] ??= import("../src/rtp-sources").then(({ RTP_SOURCES }) =>
    RTP_SOURCES.map(([game, compute]): [GameId, RtpRow[]] => [game, compute()]),
  );
  project.provide("exactRtp", await shared[COMPUTED]);
}

/** The exact RTP rows of every chance game, in the lobby's order. */
export const exactRtp = (): [GameId, RtpRow[]][] => inject("exactRtp");

/** The exact RTP rows of one game. */
export function exactRtpOf(game: string): RtpRow[] {
  const found = exactRtp().find(([g]) => g === game);
  if (!found) throw new Error(`no exact RTP computation for ${game}`);
  return found[1];
}
