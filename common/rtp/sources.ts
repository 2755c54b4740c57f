import type { RtpRow } from "./types";
import { rtpRows as baccarat } from "./baccarat";
import { rtpRows as blackjack } from "./blackjack";
import { rtpRows as coinFlip } from "./coin-flip";
import { rtpRows as craps } from "./craps";
import { rtpRows as crash } from "./crash";
import { rtpRows as dice } from "./dice";
import { rtpRows as hiLo } from "./hi-lo";
import { rtpRows as keno } from "./keno";
import { rtpRows as limbo } from "./limbo";
import { rtpRows as mines } from "./mines";
import { rtpRows as poker } from "./poker";
import { rtpRows as roulette } from "./roulette";
import { rtpRows as sicBo } from "./sic-bo";
import { rtpRows as slots } from "./slots";
import { rtpRows as threeCardPoker } from "./three-card-poker";
import { rtpRows as videoPoker } from "./video-poker";

/** Every game's exact RTP computation, in the lobby's order. */
export const RTP_SOURCES: readonly [string, () => RtpRow[]][] = [
  ["blackjack", blackjack],
  ["poker", poker],
  ["baccarat", baccarat],
  ["three-card-poker", threeCardPoker],
  ["video-poker", videoPoker],
  ["crash", crash],
  ["coin-flip", coinFlip],
  ["hi-lo", hiLo],
  ["dice", dice],
  ["limbo", limbo],
  ["craps", craps],
  ["sic-bo", sicBo],
  ["slots", slots],
  ["roulette", roulette],
  ["keno", keno],
  ["mines", mines],
];
