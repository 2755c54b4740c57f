import type { Client, Room } from "@colyseus/sdk";
import { ROOMS } from "@casino/common/protocol";
import { CRASH_MESSAGES, type CrashBetAnswer, type CrashCashOutAnswer, type CrashRoomSnapshot } from "@casino/common/crash-room";
import type { RoomConnection } from "./room";
import { SharedRoomConnection } from "./shared-room";

/**
 * Loaded only with the crash table's chunk (common/crash-room.ts brings zod along). The shared crash room of the player's activity instance (null: the public room). The server decides
 * whether the player belongs to that instance; the SDK's state arrives as a plain snapshot.
 */
export class CrashConnection extends SharedRoomConnection<CrashRoomSnapshot> {
  constructor(
    token: string,
    private readonly instanceId: string | null,
    listener: ConstructorParameters<typeof RoomConnection<CrashRoomSnapshot>>[1],
    playerId: string | null,
  ) {
    super(token, playerId, listener);
  }

  /** A bet for the round in its betting phase; `autoCashOut` a multiplier (2.5 for 2.50×) or null. */
  bet(amount: number, autoCashOut: number | null): Promise<CrashBetAnswer> {
    return this.request<CrashBetAnswer>(CRASH_MESSAGES.bet, { amount, autoCashOut });
  }

  cashOut(): Promise<CrashCashOutAnswer> {
    return this.request<CrashCashOutAnswer>(CRASH_MESSAGES.cashOut, {});
  }

  protected join(client: Client): Promise<Room> {
    return client.joinOrCreate(ROOMS.crash, { instanceId: this.instanceId });
  }

  protected read(state: unknown): CrashRoomSnapshot {
    return this.ownEntries((state as { toJSON(): CrashRoomSnapshot }).toJSON());
  }
}
