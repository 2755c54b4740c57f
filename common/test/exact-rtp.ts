import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import type { GameId } from "../src/catalogue";
import type { RtpRow } from "../src/rtp/types";

/**
 * Every engine's exact RTP, computed once per test run (the slowest computations of the common tests)
 * by this global setup, and read by every test that compares with it: the static RTP table, docs/rtp.md
 * and the rounding tests.
 */
declare module "vitest" {
  export interface ProvidedContext {
    exactRtp: [GameId, RtpRow[]][];
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const { RTP_SOURCES } = await import("../src/rtp/sources");
  project.provide(
    "exactRtp",
    RTP_SOURCES.map(([game, compute]) => [game, compute()]),
  );
}

/** The exact RTP rows of every chance game, in the lobby's order. */
export const exactRtp = (): [GameId, RtpRow[]][] => inject("exactRtp");

/** The exact RTP rows of one game. */
export function exactRtpOf(game: string): RtpRow[] {
  const found = exactRtp().find(([g]) => g === game);
  if (!found) throw new Error(`no exact RTP computation for ${game}`);
  return found[1];
}
