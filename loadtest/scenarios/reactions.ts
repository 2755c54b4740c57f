import type { Room } from "@colyseus/sdk";
import { REACTION_NAMES, TOGETHER_MESSAGES, TOGETHER_PUSH, TOGETHER_ROOM, type ReactionPush } from "@casino/common";
import { defineScenario } from "../scenario";
import type { VirtualPlayer } from "../player";

const rooms = new WeakMap<VirtualPlayer, Room>();
/** When each player sent the reaction it waits for (a player sends one at a time). */
const sending = new Map<string, { at: number; echoed: () => void }>();
/** Per reaction (the push's id): when its sender sent it, once the sender heard it back. */
const sentAt = new Map<string, number>();
/** Per reaction: when the other members heard it before its sender did. */
const early = new Map<string, number[]>();

/**
 * Reactions in activity instances: players given as members of instances (`npm run loadtest:tokens --
 * --instance-size 8`, each line a token and its instance) join their instance's together room and send
 * reactions on its crash round, each at most one a second (the server's default `REACTIONS_PER_SECOND`
 * and, 8 members together, under `INSTANCE_REACTIONS_PER_SECOND`). Recorded: `together:react echo`, a
 * reaction's round trip to its sender, and `together:reaction fan-out`, from its sending until each other
 * member of the instance heard it (every member is in this load process: the tool's players of one
 * instance are, in one process). A refusal is an error by its code.
 */
export default defineScenario({
  name: "reactions",
  description: "members of activity instances sending reactions, within the server's limits",
  async setup(p) {
    if (!p.instanceId) {
      p.ctx.stats.error("reactions: token without an instance (npm run loadtest:tokens -- --instance-size 8)");
      return;
    }
    const room = await p.joinRoom(TOGETHER_ROOM, { instanceId: p.instanceId }, () => true);
    if (!room) return;
    rooms.set(p, room);
    room.onMessage(TOGETHER_PUSH.reaction, (push: ReactionPush) => {
      const now = performance.now();
      if (push.self) {
        const mine = sending.get(p.playerId);
        if (!mine) return;
        sending.delete(p.playerId);
        p.ctx.stats.record("together:react echo", now - mine.at);
        sentAt.set(push.id, mine.at);
        for (const at of early.get(push.id) ?? []) p.ctx.stats.record("together:reaction fan-out", at - mine.at);
        early.delete(push.id);
        mine.echoed();
        return;
      }
      const sent = sentAt.get(push.id);
      if (sent !== undefined) p.ctx.stats.record("together:reaction fan-out", now - sent);
      else early.set(push.id, [...(early.get(push.id) ?? []), now]);
    });
    room.onMessage(TOGETHER_PUSH.error, (body: { code?: string }) => p.ctx.stats.error(`together:${body?.code ?? "error"}`));
  },
  async step(p) {
    const room = rooms.get(p);
    if (!room) return p.think(1000, 2000);
    const reaction = REACTION_NAMES[Math.floor(Math.random() * REACTION_NAMES.length)]!;
    const echoed = new Promise<boolean>((resolve) => {
      sending.set(p.playerId, { at: performance.now(), echoed: () => resolve(true) });
      void p.ctx.pause(p.ctx.timeoutMs).then(() => resolve(false));
    });
    room.send(TOGETHER_MESSAGES.react, { reaction, target: { kind: "crash-round" } });
    if (!(await echoed) && !p.stopping) {
      sending.delete(p.playerId);
      p.ctx.stats.error("together:react timeout");
    }
    // One a second at most, with room to spare for the server's budget.
    await p.think(1100, 1500);
  },
});
