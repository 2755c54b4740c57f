import { defineScenario } from "../scenario";

/**
 * Connections cut without a close handshake (as a network drop does) every few seconds, each followed
 * by the SDK's automatic reconnection to the same seat and a bet sent right away, which must be
 * answered exactly once. With many players the drops come in waves: a reconnect storm.
 */
export default defineScenario({
  name: "reconnect-storm",
  description: "connection cut every few seconds, reconnect to the same seat, bet again",
  async step(p) {
    for (let i = 0; i < 3 && !p.stopping; i++) {
      await p.bet("dice", 1, { target: 50.49, direction: "over" });
      await p.think(300, 900);
    }
    if (p.stopping) return;
    if (!(await p.dropAndReconnect())) {
      // The seat is gone: join again, as a client would.
      if (!(await p.join())) await p.think(2000);
    }
  },
});
