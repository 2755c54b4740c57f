import { runConnectDots, runDotBattle, sha256Hex, type DotBattleInput, type DotsInput, type DotsRules } from "../../src/index";

/**
 * SHA-256 of the whole final state after playing a log: every position, velocity and counter of the
 * simulation, so two machines that agree on it computed the same bits, not only the same score.
 */
export const dotBattleDigest = (seed: string, inputs: readonly DotBattleInput[]): string =>
  sha256Hex(JSON.stringify(runDotBattle(seed, inputs).game.state));

export const connectDotsDigest = (seed: string, inputs: readonly DotsInput[], rules: DotsRules): string =>
  sha256Hex(JSON.stringify(runConnectDots(seed, inputs, rules).game.state));
