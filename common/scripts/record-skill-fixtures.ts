/**
 * Records the input logs the replay tests check (`npx tsx common/scripts/record-skill-fixtures.ts`).
 * Re-record only on purpose: a change to a simulation that alters these scores would also make every
 * log recorded by an older browser replay differently.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { playConnectDots, playDotBattle, sweepDotBattle } from "../test/skill/bots";
import { connectDotsDigest, dotBattleDigest } from "../test/skill/digest";

const dir = join(import.meta.dirname, "../test/skill/fixtures");
const seeds = {
  survivor: "6b1d3c0f5e2a4b7d8c9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e",
  sweeper: "f00dfacecafebeef0123456789abcdef00112233445566778899aabbccddeeff",
};
const survivor = playDotBattle(seeds.survivor);
const sweeper = sweepDotBattle(seeds.sweeper);
const dots = playConnectDots(seeds.survivor);
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
  digest: connectDotsDigest(seeds.survivor, dots.inputs),
});
console.log({ survivor: [survivor.kills, survivor.ticks], sweeper: [sweeper.kills, sweeper.ticks], dots: dots.completionMs });
