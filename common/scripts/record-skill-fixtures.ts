/**
 * Records the input logs the replay tests check (`npx tsx common/scripts/record-skill-fixtures.ts`).
 * Re-record only on purpose: a change to a simulation that alters these scores would also make every
 * log recorded by an older browser replay differently.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { playConnectDots, playDotBattle, sweepDotBattle, swipeConnectDots } from "../test/skill/bots";
import { connectDotsDigest, dotBattleDigest } from "../test/skill/digest";
import { replayConnectDots } from "../src/index";

const dir = join(import.meta.dirname, "../test/skill/fixtures");
const seeds = {
  survivor: "6b1d3c0f5e2a4b7d8c9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e",
  sweeper: "f00dfacecafebeef0123456789abcdef00112233445566778899aabbccddeeff",
};
const survivor = playDotBattle(seeds.survivor);
const sweeper = sweepDotBattle(seeds.sweeper);
// Rules 1 (rounds recorded before rules 2), and a quick swipe under rules 2.
const dots = playConnectDots(seeds.survivor, 1);
const swipe = swipeConnectDots(seeds.sweeper);
const swiped = replayConnectDots(seeds.sweeper, swipe, 2);
const record = (name: string, value: unknown) => writeFileSync(join(dir, `${name}.json`), `${JSON.stringify(value)}\n`);
record("dot-battle-survivor", {
  seed: seeds.survivor,
  inputs: survivor.inputs,
  kills: survivor.kills,
  ticks: survivor.ticks,
  digest: dotBattleDigest(seeds.survivor, survivor.inputs),
});
record("dot-battle-sweeper", {
  seed: seeds.sweeper,
  inputs: sweeper.inputs,
  kills: sweeper.kills,
  ticks: sweeper.ticks,
  digest: dotBattleDigest(seeds.sweeper, sweeper.inputs),
});
record("dots", {
  seed: seeds.survivor,
  inputs: dots.inputs,
  completionMs: dots.completionMs,
  digest: connectDotsDigest(seeds.survivor, dots.inputs, 1),
});
record("dots-rules-2-swipe", {
  seed: seeds.sweeper,
  rulesVersion: 2,
  inputs: swipe,
  completionMs: swiped.ok ? swiped.result.completionMs : null,
  digest: connectDotsDigest(seeds.sweeper, swipe, 2),
});
console.log({
  survivor: [survivor.kills, survivor.ticks],
  sweeper: [sweeper.kills, sweeper.ticks],
  dots: dots.completionMs,
  swipe: swiped,
});
