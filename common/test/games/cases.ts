/// <reference types="vite/client" />
import type { GameCases } from "./case-support";

/**
 * What the central tests need of each game of chance, found by the game's id: `<game>.cases.ts` in this
 * folder. The tests that cover every game (the verifier, rounding rule 2, the casino room, verification
 * through the server) loop over the catalogue's chance games and read them here, so adding a game adds its
 * cases file and edits none of them. A game's cases file exports (shapes in `case-support.ts`):
 * - `plays`: one or more opening bets `{ amount, params }`; for a game whose round stays open, `act(view)`
 *   gives the actions to try, in order of preference, so that the round ends whatever the cards say.
 *   Every play is played to its end offline and through the server, so each costs at most a few hundred
 *   coins; `verifierSays` may give a pattern the verifier's account of the round must match.
 * - `oneCoin`: a bet of 1 coin (every chip 1 coin) that pays often enough for 60 rounds to see a payout.
 * - `rounding`: the game's bet types for rounding rule 2's proof: `enumerated` (every outcome of a
 *   single-step game, compared with the exact RTP table's row), or `sampled` (Monte Carlo through the
 *   runner), and the pay `ratios` the game rounds.
 * - `abandoned`, for a game whose engine has a default action: rounds left open, each settled by the
 *   retention sweep (server/test/retention.test.ts) with the actions it is expected to play.
 * A cases file may also export what the game's own test files share: its unit tests (`<game>.test.ts`)
 * and its statistical ones (`<game>.stats.test.ts`, the stats tier) play rounds the same way.
 */
const modules = import.meta.glob<GameCases>("./*.cases.ts", { eager: true });

export const CASES: Record<string, GameCases> = Object.fromEntries(
  Object.entries(modules).map(([path, cases]) => [path.slice("./".length, -".cases.ts".length), cases]),
);

/** The cases of `game`; throws, saying which file to write, when it has none. */
export function casesOf(game: string): GameCases {
  const cases = Object.prototype.hasOwnProperty.call(CASES, game) ? CASES[game]! : undefined;
  if (!cases) throw new Error(`${game} has no test cases: write common/test/games/${game}.cases.ts (see common/test/games/cases.ts)`);
  for (const name of ["plays", "oneCoin", "rounding"] as const)
    if (cases[name] === undefined) throw new Error(`common/test/games/${game}.cases.ts does not export \`${name}\``);
  if (cases.plays.length === 0) throw new Error(`common/test/games/${game}.cases.ts: \`plays\` is empty`);
  return cases;
}
