import { floatStream, sha256Hex } from "./src/fairness/stream";
import { actRound, startRound, requireEngine } from "./src/games/runner";
import { likelier, riskier } from "./rtp/hi-lo";
import { rankOf } from "./src/games/cards";
import { seededFloats, summarise, rtpBand } from "./test/stats";
const engine = requireEngine("hi-lo");
let fails = 0;
for (let seed = 0; seed < 20; seed++) {
  const pick = seededFloats(seed);
  const ret: number[] = []; const N = 30000;
  for (let i = 0; i < N; i++) {
    const rng = floatStream({ serverSeed: sha256Hex("s" + seed), clientSeed: "c", nonce: i });
    let step: any = startRound(engine, 1000, {}, rng);
    const target = 1 + Math.floor(pick() * 4);
    while (!step.done) {
      const s = step.state; const r = rankOf(s.cards[s.cards.length - 1]);
      const extreme = r <= 3 || r >= 13;
      const a = s.correct >= target ? { type: "cashout" } : (s.skips < 52 && (extreme || pick() < 0.05)) ? { type: "skip" } : { type: pick() < 0.75 ? likelier(r) : riskier(r) };
      step = actRound(engine, s, a, rng);
    }
    ret.push(step.payout / 1000);
  }
  const sm = summarise(ret); const [lo, hi] = rtpBand(0.99, sm); if (sm.mean < lo || sm.mean > hi) fails++;
  console.log(seed, sm.mean.toFixed(4), sm.sd.toFixed(3), lo.toFixed(4), hi.toFixed(4));
}
console.log("fails", fails);
