import type { SeatSeed } from "./games/shoe";
import type { TablePhase, TableView } from "./games/blackjack-table";
import type { RecordedShoeRound, ShoeRound } from "./games/blackjack-table";
import type { RoundingRule } from "./fairness/rounding";

/**
 * The shared blackjack table (`blackjack-table` room, docs/architecture/blackjack-table.md): up to 7
 * seats against one dealer and one shoe, everyone else watching. No zod here (the client's entry imports
 * this file); the messages' schemas are in table-schemas.ts, the round engine in games/blackjack-table.ts.
 */

/** Seats at a table (the shoe's TABLE_SEATS, here without importing the engine). */
export const TABLE_SEATS_COUNT = 7;

/** Client → server message types. Each carries a `requestId` and is answered `result` or `error` with it. */
export const TABLE_MESSAGES = {
  /** `{ requestId, seat }`: sit down at a free seat (1–7); a seat taken during a round plays from the next one. */
  sit: "table:sit",
  /** `{ requestId }`: stand up; a seat in the round being played is stood for and freed when the round ends. */
  leave: "table:leave",
  /** `{ requestId, amount }`: the seat's opening bet, in the betting window (once a round). */
  bet: "table:bet",
  /** `{ requestId }`: done betting; betting closes early once every seated player has bet and is ready. */
  ready: "table:ready",
  /** `{ requestId, action }`: the seat to act plays `hit`, `stand`, `double`, `split` or `insurance { take }`. */
  act: "table:act",
} as const;
export type TableMessageType = (typeof TABLE_MESSAGES)[keyof typeof TABLE_MESSAGES];

/**
 * What the room is doing: `waiting` (nobody seated, or the room waits for the table to be free),
 * `betting` (the betting window), then the round's own phases (insurance, turns, dealer, settled).
 */
export type TableRoomPhase = "waiting" | TablePhase;

/** A seated player as everyone at the table sees them. */
export interface TableSeatPlayer {
  seat: number;
  playerId: string;
  /** "Anonymous" for a player in anonymous mode. */
  username: string;
  avatarUrl: string | null;
  /** The seed of the generated face (a short hash of the player, the same on every surface), null when anonymous. */
  face: string | null;
  /** Pressed Ready in this betting window. */
  ready: boolean;
  /** Connected now; a dropped player keeps the seat for the reconnection grace and is stood for meanwhile. */
  connected: boolean;
  /** The bet placed in this betting window (or the round being played), null when none. */
  bet: number | null;
  /** Plays in the round being dealt (false for a seat taken after the deal, which watches until the next round). */
  inRound: boolean;
  /** Asked to stand up: the seat is freed when the round being played ends. */
  leaving: boolean;
}

/** The shoe being dealt, as the table shows it: its commitment from before its first round. */
export interface TableShoeInfo {
  id: string;
  /** SHA-256 of the shoe's server seed, shown before its first round. */
  serverSeedHash: string;
  /** The seats' client seeds the shoe was shuffled with: null until its first round is dealt. */
  seats: SeatSeed[] | null;
  /** Rounds dealt from this shoe. */
  rounds: number;
  rounding: RoundingRule;
}

/** A finished shoe with its revealed seed: everything `verifyShoe` needs, with `GET /api/tables/shoes/:id`. */
export interface RevealedShoe {
  id: string;
  serverSeed: string;
  serverSeedHash: string;
  seats: SeatSeed[];
  rounding: RoundingRule;
  /** Every round of the shoe: bets and actions in the order applied (default actions included). */
  rounds: ShoeRound[];
  /** What the server recorded when it settled each of those rounds (same order): the verifier compares. */
  outcomes: RecordedShoeRound[];
}

/**
 * The `blackjack-table` room's state as plain data: the server's state holds it as JSON in its
 * `snapshot` field (`JSON.parse(room.state.snapshot)`), the same for every client, seated or watching.
 * Times are the server's epoch milliseconds.
 */
/**
 * The shared table room's synchronised state (the server's `TableRoomState` schema implements it): one
 * `TableSnapshot` as JSON, the same for every client, "" until the room has published its first.
 */
export interface TableRoomState {
  snapshot: string;
}

/** The snapshot a table room's state holds, or null before the first: the one reader of that JSON. */
export function tableSnapshotOf(state: Partial<TableRoomState> | undefined): TableSnapshot | null {
  const text = state?.snapshot;
  return text ? (JSON.parse(text) as TableSnapshot) : null;
}

export interface TableSnapshot {
  /** The table's id: `instance:<instanceId>` for an activity instance's table, `public:<id>` otherwise. */
  tableId: string;
  instanceId: string | null;
  phase: TableRoomPhase;
  /** When the betting window closes or the seat to act is stood for; null when no timer runs. */
  deadline: number | null;
  /**
   * The server's clock when it sent this snapshot. A device's clock may be off by minutes: the client
   * counts down to `deadline` by the server's clock (`serverTime` minus its own when the snapshot
   * arrived, added to its own), never by its own alone.
   */
  serverTime: number;
  /** The seat whose timer runs (insurance and turns), else null. */
  toAct: number | null;
  bettingMs: number;
  turnMs: number;
  /** Seated players, in seat order. */
  players: TableSeatPlayer[];
  /** Clients watching without a seat. */
  watchers: number;
  /**
   * The round on the table (engine `tableView`): never a card still in the shoe, the hole card only once
   * it is turned. Null between rounds before the first deal of the room.
   */
  view: TableView | null;
  /** The shoe in use: its id and commitment (shown before its first round); null until one is committed. */
  shoe: TableShoeInfo | null;
  /** The shoe before this one, with its revealed server seed (verify it with `GET /api/tables/shoes/:id`). */
  previousShoe: { id: string; serverSeed: string; serverSeedHash: string } | null;
}

/** The answer (`result`) to a table message. */
export interface TableAnswer {
  requestId: string;
  /** The message type answered. */
  type: TableMessageType;
  seat: number | null;
  /** Coins this message staked (a bet, insurance, a double or a split); 0 for the rest. */
  stake: number;
  /** The player's balance after it, when it moved coins. */
  balance: number | null;
}

/** One table of `GET /api/tables`: the tables a player may join (the instance's, or the public ones). */
export interface TableListing {
  roomId: string;
  tableId: string;
  instanceId: string | null;
  seated: number;
  freeSeats: number;
  watchers: number;
}
