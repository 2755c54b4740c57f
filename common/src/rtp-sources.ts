import { GAMES, type GameId } from "./catalogue";
import type { RtpRow } from "./rtp/types";

/**
 * Every chance game's exact RTP computation, in the lobby's order: `rtpRows` of the game's
 * `common/src/games/<game>/rtp.ts`, found by its id (a computation too slow for a browser, so no bundle
 * imports it; the scripts and the tests load it here).
 */
export const RTP_SOURCES: readonly [GameId, () => RtpRow[]][] = await Promise.all(
  GAMES.filter((game) => game.kind === "chance").map(async ({ id }): Promise<[GameId, () => RtpRow[]]> => [
    id,
    ((await import(`./games/${id}/rtp.ts`)) as { rtpRows: () => RtpRow[] }).rtpRows,
  ]),
);
