import type { ActiveSeedView, BetAnswer } from "@casino/common";
import type { Log } from "../../../platform/log";
import type { RequestKind } from "./reasons";

/** Why a player's balance changed, as the player's other connections hear it (by the request's kind). */
export type BalanceReason =
  "grant" | "bet" | "daily_spin" | "reward" | "crash" | "blackjack-table" | "holdem-table" | "admin_adjustment" | "round_settled";

/**
 * What one committed money request did, told once, after its COMMIT (never for a refusal, a rollback or
 * a replayed answer):
 * - `balance`: coins moved (even when they net to nothing: a push). The engine announces it for every
 *   request whose work moved coins; `from` is the connection that made the request (its own answer
 *   carries the news already), null for the server's own work, REST and operators.
 * - `round`: a round of a game of chance opened, stepped or settled (`round.done`), with the answer the
 *   player got and the bet's parameters as recorded (what tells the multiplier the bet was placed at).
 * - `table-settled`: a seat's round at the shared blackjack table was paid.
 * - `skill-settled`: a skill round's reward was paid.
 * - `holdem-settled`: a Hold'em hand the player was dealt into was written, with what the seat put in
 *   and won (no card: the feed row must never tell one).
 * - `seeds`: the player's seed pair changed (a rotation, a new client seed); `from` as for a balance.
 */
export type Announcement =
  | { type: "balance"; playerId: string; balance: number; delta: number; reason: BalanceReason; from: string | null }
  | { type: "round"; playerId: string; step: "bet" | "act"; round: BetAnswer; params: unknown }
  | {
      type: "table-settled";
      playerId: string;
      seat: { stake: number; payout: number; shoeHash: string; round: number; seat: number };
    }
  | { type: "skill-settled"; playerId: string; round: { game: string; roundId: string; reward: number } }
  | {
      type: "holdem-settled";
      playerId: string;
      hand: { handId: string; handNumber: number; serverSeedHash: string; seat: number; putIn: number; won: number };
    }
  | { type: "seeds"; playerId: string; active: ActiveSeedView; from: string | null };

/** A subscriber: told of each announcement in commit order; what it returns is awaited by `idle()` only. */
export type AnnouncementListener = (announcement: Announcement) => void | Promise<unknown>;

/**
 * The one bus of what the ledger committed, in this process. The money engine delivers to it after each
 * COMMIT, whoever made the request (a room, a REST route, the retention sweep, an operator's command),
 * so none of them tells anyone itself. Its subscribers: the player's connections on every process (the
 * player's event channel), the activity feeds, metrics, leaderboards and progress (wired in app.ts; the
 * operators' command forwards balances to the event channel only). A subscriber must not block; one
 * that throws or rejects is logged, and the others are told all the same.
 */
export class Announcements {
  private readonly listeners = new Set<AnnouncementListener>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly log: Pick<Log, "error">) {}

  subscribe(listener: AnnouncementListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every subscriber of each announcement: the engine calls it after COMMIT, and nothing else does. */
  deliver(announcements: readonly Announcement[]): void {
    for (const announcement of announcements) {
      for (const listener of this.listeners) {
        try {
          const work = listener(announcement);
          if (work) this.track(work);
        } catch (error) {
          this.failed(announcement, error);
        }
      }
    }
  }

  /** Resolves once what the subscribers started has ended (a command-line process awaits it before it exits). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.then(
      () => undefined,
      (error: unknown) => this.log.error("announcements", "an announcement's subscriber failed", error),
    );
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  private failed(announcement: Announcement, error: unknown): void {
    this.log.error("announcements", `an announcement's subscriber failed (${announcement.type})`, error);
  }
}

/** The reason of a request's balance change, by its kind (a seed rotation moves no coins). */
export const BALANCE_REASONS: Record<RequestKind, BalanceReason> = {
  bet: "bet",
  act: "bet",
  spin: "daily_spin",
  "crash-bet": "crash",
  "crash-cashout": "crash",
  "crash-settle": "crash",
  "table-bet": "blackjack-table",
  "table-act": "blackjack-table",
  "table-settle": "blackjack-table",
  "holdem-buy-in": "holdem-table",
  "holdem-cash-out": "holdem-table",
  "skill-reward": "reward",
  adjustment: "admin_adjustment",
  rotate: "bet",
  "client-seed": "bet",
};
