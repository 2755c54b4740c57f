import { defineScenario } from "../scenario";
import type { VirtualPlayer } from "../player";

/** Multi-step rounds: blackjack, mines, hi-lo and video poker, played to the end with a short think between steps. */
const ROUNDS: Record<
  string,
  { params: unknown; play: (p: VirtualPlayer, view: any) => Promise<{ done: boolean; view: any } | undefined> }
> = {
  blackjack: {
    params: {},
    play: async (p, view) => step(p, view?.phase === "insurance" ? { type: "insurance", take: false } : { type: "stand" }),
  },
  mines: {
    params: { mines: 3 },
    play: async (p, view) => {
      const revealed: number[] = Array.isArray(view?.revealed) ? view.revealed : [];
      if (revealed.length >= 2) return step(p, { type: "cashout" });
      const free = Array.from({ length: 25 }, (_, i) => i).filter((t) => !revealed.includes(t));
      return step(p, { type: "reveal", tile: free[Math.floor(Math.random() * free.length)] });
    },
  },
  "hi-lo": {
    params: {},
    play: async (p, view) => {
      if ((view?.correct ?? 0) >= 1) return step(p, { type: "cashout" });
      // A side that cannot win (higher than a king) pays 0: guess among the others.
      const sides = (["higher", "lower"] as const).filter((side) => Number(view?.[side]) > 0);
      if (sides.length === 0) return step(p, { type: "skip" });
      return step(p, { type: sides[Math.floor(Math.random() * sides.length)] });
    },
  },
  "video-poker": {
    params: {},
    play: async (p) => step(p, { type: "draw", hold: [true, true, false, false, false] }),
  },
};

async function step(p: VirtualPlayer, action: unknown) {
  const answer = await p.act(action);
  return answer.ok ? { done: Boolean(answer.body.done), view: answer.body.view } : undefined;
}

export default defineScenario({
  name: "multi-step",
  description: "blackjack, mines, hi-lo and video poker rounds played to the end",
  async step(p) {
    // 5 coins a round; a player running low on coins picks among the games they can still afford.
    const stakeOf = (_game: string) => 5;
    const all = Object.keys(ROUNDS);
    const affordable = all.filter((game) => stakeOf(game) <= p.balance);
    const games = affordable.length > 0 ? affordable : all;
    const game = games[Math.floor(Math.random() * games.length)]!;
    const opened = await p.bet(game, stakeOf(game), ROUNDS[game]!.params);
    if (!opened.ok) return p.think(500);
    let state: { done: boolean; view: any } | undefined = { done: Boolean(opened.body.done), view: opened.body.view };
    // A round left open by a failed step stays in the database; the next bet would be refused, so stop here.
    for (let steps = 0; state && !state.done && steps < 10; steps++) {
      await p.think(100, 400);
      state = await ROUNDS[game]!.play(p, state.view);
    }
    await p.think(200, 800);
  },
});
