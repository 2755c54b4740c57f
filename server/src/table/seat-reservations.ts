import type { Room } from "@colyseus/core";
import { TABLE_SEAT_RESERVATION_MS } from "@casino/common/table-join";
import type { Clock, ClockTimer } from "../platform/clock";

/** Core's seat reservation (0.18): what the matchmaker calls on the chosen room before the client connects. */
type ReserveSeat = (
  sessionId: string,
  joinOptions?: unknown,
  authData?: unknown,
  seconds?: number,
  allowReconnection?: boolean,
  ...rest: unknown[]
) => Promise<boolean>;

const asksForSeat = (options: unknown): boolean => (options as { freeSeat?: unknown } | null)?.freeSeat === true;

/**
 * A public table's seat reservations (the blackjack table's and the Hold'em table's): the seats held
 * for connections that the matchmaker sent to the table because they asked for a free seat
 * (`freeSeat: true`). The room counts them with the seats taken when it publishes `freeSeat`, so
 * players who press "Hold'em table" at the same moment are spread over tables of the right size
 * instead of all meeting at one and all but its seats finding it full.
 *
 * A reservation is made when the matchmaker reserves the connection's place in the room, before the
 * client has even connected: the room's metadata is only read by later joins, and many joins can be
 * matched to one room before the first of them reaches `onJoin`. Core's seat reservation is wrapped for
 * that (it is private in core's types, as `setAutoDispose` reaches another of core's fields): a join
 * asking for a free seat where none is left, reservations counted, is refused there, and the matchmaker
 * retries it (it looks again, and opens a new table when every table is full).
 *
 * A reservation ends when its connection sits down (`release`, the seat is then counted as taken),
 * leaves the room (`release`), or after `TABLE_SEAT_RESERVATION_MS` on the table's clock: a joiner who
 * only watches does not keep the seat. Reservations only steer matchmaking: taking a seat stays first
 * come, first served, for anyone in the room.
 */
export class SeatReservations {
  /** When each held reservation ends, by connection (`sessionId`). */
  private readonly held = new Map<string, number>();
  private timer: ClockTimer | undefined;

  /**
   * `seatsLeft`: the table's seats not taken (seats held, and seats being bought in); `changed`: called
   * when reservations change outside a call of the room's own (a join matched, a reservation run out),
   * for the room to publish its listing.
   */
  constructor(
    room: Room,
    private readonly clock: Clock,
    private readonly seatsLeft: () => number,
    private readonly changed: () => void,
  ) {
    const internals = room as unknown as { _reserveSeat: ReserveSeat };
    const reserve = internals._reserveSeat.bind(room);
    internals._reserveSeat = async (sessionId, joinOptions, authData, seconds, allowReconnection, ...rest) => {
      const wantsSeat = !allowReconnection && asksForSeat(joinOptions);
      if (wantsSeat) {
        if (!this.free(this.seatsLeft())) return false;
        this.hold(sessionId);
      }
      const reserved = await reserve(sessionId, joinOptions, authData, seconds, allowReconnection, ...rest);
      if (!reserved && wantsSeat) this.release(sessionId);
      return reserved;
    };
  }

  /** Reservations held now. */
  get count(): number {
    return this.held.size;
  }

  /** Whether a seat is left for one more, once the reservations are counted: the `freeSeat` of the listing. */
  free(seatsLeft: number): boolean {
    return seatsLeft - this.held.size > 0;
  }

  /** The connection sat down or left the room: its reservation (if any) ends. The caller publishes. */
  release(sessionId: string): boolean {
    if (!this.held.delete(sessionId)) return false;
    this.arm();
    return true;
  }

  /** The table is closing: no reservation is timed any more. */
  stop(): void {
    this.held.clear();
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private hold(sessionId: string): void {
    this.held.set(sessionId, this.clock.now() + TABLE_SEAT_RESERVATION_MS);
    this.arm();
    this.changed();
  }

  /** One timer on the clock, for the reservation that ends first. */
  private arm(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held.size === 0) return;
    const next = Math.min(...this.held.values());
    this.timer = this.clock.setTimeout(
      () => {
        this.timer = undefined;
        const now = this.clock.now();
        for (const [sessionId, until] of this.held) if (until <= now) this.held.delete(sessionId);
        this.arm();
        this.changed();
      },
      Math.max(0, next - this.clock.now()),
    );
  }
}
