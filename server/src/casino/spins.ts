import { DAILY_SPIN_COOLDOWN_MS, floatStream, spinWheel, type SpinAnswer } from "@casino/common";
import { AppError } from "../platform/errors";
import { MINT, fairnessOf, moveCoins, type MoneyRequests, type Replayable } from "../core/ledger/engine/index";

/** The daily wheel's money: one prize a day, drawn from the player's stream. */
export class DailySpins {
  constructor(private readonly requests: MoneyRequests) {}

  /** The daily wheel, once per 24 hours (checked under the player's lock); the segment comes from the player's stream. */
  spin(playerId: string, requestId: string, now = new Date(), origin?: string): Promise<Replayable<SpinAnswer>> {
    return this.requests.run({ playerId, requestId, kind: "spin", body: {}, origin }, async (ctx) => {
      const last = ctx.player.lastDailySpin;
      if (last && now.getTime() - last.getTime() < DAILY_SPIN_COOLDOWN_MS) {
        const next = last.getTime() + DAILY_SPIN_COOLDOWN_MS;
        throw new AppError("already_spun", 429, "Already spun today", {
          nextSpinAt: new Date(next).toISOString(),
          msLeft: next - now.getTime(),
        });
      }
      const seed = ctx.seed;
      const { segment, prize } = spinWheel(floatStream(fairnessOf(seed)));
      const balance = moveCoins(
        ctx,
        requestId,
        [
          {
            delta: prize,
            reason: "daily_spin",
            reference: `segment ${segment}`,
            account: MINT.dailySpin,
            drawnFrom: { seedId: seed.id, nonce: seed.nonce },
          },
        ],
        { seedId: seed.id, set: (w) => `last_daily_spin = ${w.p(now)}` },
      );
      return {
        requestId,
        prize,
        segment,
        balance,
        lastDailySpin: now.toISOString(),
        fairness: { serverSeedHash: seed.serverSeedHash, clientSeed: seed.clientSeed, nonce: seed.nonce },
      };
    });
  }
}
