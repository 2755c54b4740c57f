import type { Announcement, AnnouncementListener, Announcements } from "./core/ledger/engine/index";
import { countRoundStep } from "./core/metrics";
import type { PlayerEvent } from "./core/events/player-events";
import type { Services } from "./services";

/**
 * Who hears what the ledger committed: every subscriber of the announcement bus
 * (`core/ledger/engine/announcements.ts`), in one place. The rooms, routes, sweeps and the operators'
 * command only ask the ledger and answer; none of them tells anyone of a commit.
 */
export function subscribeToCommits(bus: Announcements, s: Pick<Services, "events" | "together" | "leaderboards" | "progress">): void {
  // The player's connections on every process (the player's event channel; Redis when scaled out).
  bus.subscribe(balanceToPlayer((playerId, event) => s.events.publish(playerId, event)));
  bus.subscribe((a) => {
    if (a.type !== "seeds") return;
    const event: PlayerEvent = { type: "fairness", ...a.active };
    if (a.from !== null) event.from = a.from;
    s.events.publish(a.playerId, event);
  });
  // The boards and the tags read the ledger themselves: a commit that moved coins is their hint to read now.
  bus.subscribe((a) => {
    if (a.type !== "balance") return;
    s.leaderboards.onCommitted();
    s.progress.onCommitted();
  });
  // The activity feeds, the watched tables and the metrics of rounds.
  bus.subscribe((a) => {
    switch (a.type) {
      case "round":
        countRoundStep(a.step, a.round);
        // A settled round feeds the player's activity instance (and the big wins): nothing of an open one.
        if (a.round.done) s.together.roundSettled(a.playerId, { ...a.round, params: a.params });
        // Every step, open or last, reaches whoever in the instance watches the table: the player's own view.
        s.together.roundStep(a.playerId, { ...a.round, params: a.params });
        return;
      case "table-settled":
        return s.together.tableSettled(a.playerId, a.seat);
      case "skill-settled":
        return s.together.skillSettled(a.playerId, a.round);
      case "holdem-settled":
        return s.together.holdemSettled(a.playerId, a.hand);
      case "balance":
      case "seeds":
        return;
    }
  });
}

/**
 * The balance announcement as the player's event channel carries it: a `balance` event, marked with the
 * connection that made the request (`from`), which skips it. `publish` is the channel's: the server's
 * PlayerEvents, or an operator's command's presence (whose promise the command awaits before it exits).
 */
export function balanceToPlayer(publish: (playerId: string, event: PlayerEvent) => unknown): AnnouncementListener {
  return (a: Announcement) => {
    if (a.type !== "balance") return;
    const event: PlayerEvent = { type: "balance", balance: a.balance, delta: a.delta, reason: a.reason };
    if (a.from !== null) event.from = a.from;
    const published = publish(a.playerId, event);
    return published instanceof Promise ? published : undefined;
  };
}
