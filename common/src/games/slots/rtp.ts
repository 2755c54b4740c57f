import { lineAt, linePays, REELS } from "./engine";
import type { RtpRow } from "../../rtp/types";

/** Coins returned for 1 over every reel stop combination, and how many combinations there are. */
export function enumerateSlots(): { returned: number; combinations: number; hits: number } {
  let returned = 0;
  let hits = 0;
  const [r1, r2, r3] = REELS as [readonly unknown[], readonly unknown[], readonly unknown[]];
  for (let a = 0; a < r1.length; a++)
    for (let b = 0; b < r2.length; b++)
      for (let c = 0; c < r3.length; c++) {
        const pays = linePays(lineAt([a, b, c]));
        returned += pays;
        if (pays > 0) hits += 1;
      }
  return { returned, combinations: r1.length * r2.length * r3.length, hits };
}

export function rtpRows(): RtpRow[] {
  const { returned, combinations, hits } = enumerateSlots();
  return [
    {
      game: "slots",
      bet: "classic 3-reel",
      rtp: returned / combinations,
      reference: 0.9755,
      method: `exact: all ${combinations} reel stop combinations, ${returned} coins back per ${combinations} (hit frequency ${((100 * hits) / combinations).toFixed(3)} %)`,
    },
  ];
}
