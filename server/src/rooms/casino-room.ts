import { sqlRows } from "../db/sql";
import { Room, type AuthContext, type Client } from "@colyseus/core";
import {
  CLIENT_MESSAGES,
  SERVER_MESSAGES,
  actMessage,
  betMessage,
  dailySpinMessage,
  describeZodError,
  requireEngine,
  rotateSeedMessage,
  setClientSeedMessage,
  type RoomErrorMessage,
} from "@casino/common";
import type { z } from "zod";
import type { SessionClaims } from "../auth/session";
import type { BetAnswer } from "../ledger/ledger";
import { AppError } from "../errors";
import type { Services } from "../services";
import type { PlayerEvent } from "./player-events";
import { CasinoState } from "./casino-state";
import { betLimiter } from "./rate-limit";
import { patchOnlyOnChange } from "./patch-on-change";
import { remindersOf } from "./reminders";

type CasinoClient = Client<{ auth: SessionClaims }>;

/**
 * One room per player connection. It validates every message, asks the ledger, answers with the
 * request id, and mirrors balance and fairness from the player's event channel, which every
 * connection of the player on every process hears.
 */
export class CasinoRoom extends Room<{ state: CasinoState; client: CasinoClient }> {
  static services: Services;
  override maxClients = 1;
  private playerId = "";
  private unsubscribe: (() => void) | undefined;
  private reminded = false;

  static override async onAuth(token: string, _options: unknown, _context: AuthContext): Promise<SessionClaims> {
    return CasinoRoom.services.tokens.verify(token);
  }

  override onCreate(): void {
    this.state = new CasinoState();
    this.autoDispose = true;
    // No timer per room: the state is patched right after each change (`changed()`).
    patchOnlyOnChange(this);
    this.handle(CLIENT_MESSAGES.bet, betMessage, async (msg) => {
      const answer = await CasinoRoom.services.ledger.placeBet(this.playerId, msg.requestId, msg.game, msg.amount, msg.params);
      this.afterRound(answer);
      return answer;
    }, true);
    this.handle(CLIENT_MESSAGES.act, actMessage, async (msg) => {
      const answer = await CasinoRoom.services.ledger.act(this.playerId, msg.requestId, msg.action);
      this.afterRound(answer);
      return answer;
    }, true);
    // A new client seed starts a new stream, so it rotates the pair like a plain rotation.
    this.handle(CLIENT_MESSAGES.setClientSeed, setClientSeedMessage, (msg) => this.rotateSeeds(msg.clientSeed));
    this.handle(CLIENT_MESSAGES.rotateSeed, rotateSeedMessage, (msg) => this.rotateSeeds(msg.clientSeed));
    this.handle(CLIENT_MESSAGES.dailySpin, dailySpinMessage, async (msg) => {
      const spin = await CasinoRoom.services.ledger.dailySpin(this.playerId, msg.requestId);
      CasinoRoom.services.events.publish(this.playerId, { type: "balance", balance: spin.balance, delta: spin.prize, reason: "daily_spin" });
      this.state.nonce = Math.max(this.state.nonce, spin.fairness.nonce + 1);
      this.changed();
      return spin;
    });
  }

  override async onJoin(client: CasinoClient): Promise<void> {
    const s = CasinoRoom.services;
    if (!client.auth) throw new AppError("unauthorized", 401, "Authentication required");
    this.playerId = client.auth.playerId;
    this.unsubscribe = s.events.subscribe(this.playerId, (event) => this.onPlayerEvent(event));
    await this.refresh();
    // "Daily Spin Ready!" now (arriving on the event channel), then on the process's shared reminder
    // sweep while connected. The join does not wait for it.
    this.reminded = true;
    void remindersOf(s).join(this.playerId);
  }

  override async onDrop(client: CasinoClient): Promise<void> {
    // A dropped connection keeps its seat for a while; the open round is in the database either way.
    await this.allowReconnection(client, 30);
  }

  override onReconnect(): Promise<void> {
    return this.refresh();
  }

  override onDispose(): void {
    this.unsubscribe?.();
    if (this.reminded) remindersOf(CasinoRoom.services).leave(this.playerId);
  }

  /** Balance, fairness and the open round, read from the database (the system of record). */
  private async refresh(): Promise<void> {
    const s = CasinoRoom.services;
    const player = await s.players.get(this.playerId);
    const seed = await s.seeds.active(this.playerId);
    const round = await s.db.run((em) => sqlRows(em, `SELECT id, game, state, total_stake, total_payout FROM open_rounds WHERE player_id = $1`, [this.playerId]));
    this.state.balance = player.balance;
    this.state.serverSeedHash = seed.serverSeedHash;
    this.state.clientSeed = seed.clientSeed;
    this.state.nonce = seed.nonce;
    this.state.openRound = round.length > 0 ? JSON.stringify(openRoundView(round[0])) : "";
    this.changed();
  }

  /** Sends the state's changes now (there is no patch timer); nothing is sent when nothing changed. */
  private changed(): void {
    this.broadcastPatch();
  }

  private onPlayerEvent(event: PlayerEvent): void {
    if (event.type === "balance") this.state.balance = event.balance;
    if (event.type === "fairness") {
      this.state.serverSeedHash = event.serverSeedHash;
      this.state.clientSeed = event.clientSeed;
      this.state.nonce = event.nonce;
    }
    this.changed();
    this.broadcast(event.type === "fairness" ? SERVER_MESSAGES.seeds : event.type, event);
  }

  private async rotateSeeds(clientSeed: string | undefined) {
    const seeds = await CasinoRoom.services.seeds.rotate(this.playerId, clientSeed);
    CasinoRoom.services.events.publish(this.playerId, { type: "fairness", ...seeds.active });
    return seeds;
  }

  /**
   * After a round step: tell every connection of the player the new balance, and update this room's
   * nonce and open round from the answer itself (no re-read on the hot path).
   */
  private afterRound(answer: BetAnswer): void {
    CasinoRoom.services.events.publish(this.playerId, { type: "balance", balance: answer.balance, delta: answer.payout - answer.stake, reason: "bet" });
    if (answer.fairness.serverSeedHash === this.state.serverSeedHash) {
      this.state.nonce = Math.max(this.state.nonce, answer.fairness.nonce + 1);
    }
    this.state.openRound = answer.done
      ? ""
      : JSON.stringify({ roundId: answer.roundId, game: answer.game, totalStake: answer.totalStake, totalPayout: answer.totalPayout, view: answer.view });
    this.changed();
  }

  /**
   * Registers a message: the body is validated inside (a failed validation answers an error, never a
   * disconnect), money messages are rate-limited, and every answer carries the request id.
   */
  private handle<T extends { requestId: string }>(
    type: string,
    schema: z.ZodType<T>,
    work: (msg: T) => Promise<unknown>,
    rateLimited = false,
  ): void {
    this.onMessage(type, async (client: CasinoClient, raw: unknown) => {
      const requestId = typeof (raw as { requestId?: unknown })?.requestId === "string" ? (raw as { requestId: string }).requestId : undefined;
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        return this.sendError(client, { requestId, code: "invalid_message", message: describeZodError(parsed.error) });
      }
      if (rateLimited && !betLimiter(CasinoRoom.services.config.betRatePerSecond).take(this.playerId)) {
        return this.sendError(client, { requestId, code: "rate_limited", message: "Too many bets; slow down a little" });
      }
      try {
        const result = await work(parsed.data);
        client.send(type === CLIENT_MESSAGES.dailySpin ? SERVER_MESSAGES.spin : SERVER_MESSAGES.result, { type, ...(result as object), requestId });
      } catch (error) {
        if (error instanceof AppError) {
          return this.sendError(client, { requestId, code: error.code, message: error.message, details: error.details });
        }
        console.error(`room message ${type} failed`, error);
        this.sendError(client, { requestId, code: "internal", message: "Something went wrong; nothing was charged" });
      }
    });
  }

  private sendError(client: CasinoClient, error: RoomErrorMessage): void {
    client.send(SERVER_MESSAGES.error, error);
  }
}

function openRoundView(r: Record<string, any>) {
  const engine = requireEngine(r.game);
  return { roundId: r.id, game: r.game, totalStake: Number(r.total_stake), totalPayout: Number(r.total_payout), view: engine.view(r.state, false) };
}
