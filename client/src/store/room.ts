import { create } from "zustand";
import type { ActiveSeedView } from "@casino/common/protocol";
import type { OpenRoundView } from "@casino/common/rooms";
import type { CasinoConnection } from "../net/room";
import type { ConnectionStatus } from "../net/room-failure";

interface RoomState {
  connection: CasinoConnection | null;
  status: ConnectionStatus | "idle";
  /** Why the server closed the connection for good (status "closed": the account was suspended or erased). */
  closedReason: string | null;
  /** The balance the server last pushed (or the player record's, before the room answers). */
  balance: number | null;
  openRound: OpenRoundView | null;
  /** The player's seeds as the room mirrors them: active pair (server seed as its hash), nonce, next seed's hash. */
  seeds: ActiveSeedView | null;
  /**
   * While true the header keeps showing the balance from before, so a prize is not given away
   * before the wheel lands (the daily spin holds it for its animation).
   */
  balanceHeld: boolean;
  holdBalance(held: boolean): void;
  /**
   * Payouts the server has credited whose table has not shown the result yet, by request id (0 for a
   * loss): the header shows the balance without them, so it never tells a round's outcome before the
   * table does, and pushed toasts wait until it is empty.
   */
  withheld: Readonly<Record<string, number>>;
  /** Bets and actions sent and not answered yet: the header waits for their answer (see `acceptAnswer`). */
  inFlight: number;
  /** The net figure (payout − stake) of each settled round in `withheld`, told by the header when it shows. */
  withheldNet: Readonly<Record<string, number>>;
  /** What the header's change chip tells next, when it is not the plain change of the balance (see `BalanceNote`). */
  balanceNote: BalanceNote | null;
  /** The shown balance when the first request now in flight left: the header holds it until they are answered. */
  shownAtSend: number | null;
}

/**
 * What the header's change chip says about a change of the shown balance that belongs to a round
 * (docs/architecture/money-path.md, "One figure per round"): a stake leaving it ("stake", unsigned,
 * "10 staked"), or a round's result ("net", its net figure, payout − stake, as the result line, the
 * toast and the history tell it; a loss too). `change` is how far the note's event moves the shown
 * balance (minus the stake; the payout released, 0 for a loss): the chip tells the note instead of that
 * plain change, whether the change comes with the note (a solo table's answer and reveal) or just
 * before or after it (a shared room's payout, which reaches the balance through the room's state). Any
 * other change (the daily spin's prize, a reward, an operator's adjustment) is told as the plain signed
 * change.
 */
export interface BalanceNote {
  id: number;
  kind: "stake" | "net";
  amount: number;
  change: number;
}

export const useRoom = create<RoomState>()((set) => ({
  connection: null,
  status: "idle",
  closedReason: null,
  balance: null,
  openRound: null,
  seeds: null,
  balanceHeld: false,
  holdBalance: (held) => set({ balanceHeld: held }),
  withheld: {},
  inFlight: 0,
  withheldNet: {},
  balanceNote: null,
  shownAtSend: null,
}));

let notes = 0;
const note = (kind: BalanceNote["kind"], amount: number, change: number): BalanceNote => ({ id: ++notes, kind, amount, change });

/** The balance the header shows: the server's, less the payouts whose result no table has shown yet. */
export const shownBalance = (s: Pick<RoomState, "balance" | "withheld">): number | null =>
  s.balance === null ? null : s.balance - Object.values(s.withheld).reduce((sum, v) => sum + v, 0);

/** A bet or an action leaves for the server. */
export const requestSent = () =>
  useRoom.setState((s) => ({ inFlight: s.inFlight + 1, ...(s.inFlight === 0 ? { shownAtSend: shownBalance(s) } : {}) }));

/**
 * The server answered a bet or an action (or refused it: `answer` null). The answer's balance is the
 * freshest word (the room's state patch with the same balance arrives just before it, while the header
 * still holds the balance for the request in flight), so the stake leaves the shown balance now; the
 * payout of a settled round is withheld until its table shows the result (`revealed`).
 */
export function acceptAnswer(
  answer: {
    requestId: string;
    balance: number;
    done: boolean;
    payout: number;
    totalStake: number;
    totalPayout: number;
    replayed?: true;
  } | null,
): void {
  useRoom.setState((s) => {
    const inFlight = Math.max(0, s.inFlight - 1);
    if (!answer || answer.replayed) return { inFlight };
    // Every settled round is held until its table shows it, a loss (payout 0) too: pushed toasts (a tag
    // unlocked by this very bet) wait for `withheld` to empty.
    const withheld = answer.done ? { ...s.withheld, [answer.requestId]: answer.payout } : s.withheld;
    const withheldNet = answer.done ? { ...s.withheldNet, [answer.requestId]: answer.totalPayout - answer.totalStake } : s.withheldNet;
    // what left the shown balance is a stake (a bet, a double, a raise), the payout being withheld:
    // what left it since the header began to wait (the room's state may have brought the answer's
    // balance already, payout included), told once the last request in flight is answered
    const before = s.shownAtSend;
    const after = shownBalance({ balance: answer.balance, withheld });
    const staked = inFlight === 0 && before !== null && after !== null && after < before ? before - after : 0;
    return {
      inFlight,
      balance: answer.balance,
      withheld,
      withheldNet,
      ...(staked > 0 ? { balanceNote: note("stake", staked, -staked) } : {}),
    };
  });
}

/**
 * Some round of the player's is not on its table yet: a bet or an action is on its way (its outcome may
 * be committed and on its way in the history or a feed), or a settled round's reveal has not finished.
 * While it holds, everything that tells a round's outcome waits: the header's payout, the round's row
 * in "My bets" and "Your bets", the player's own rows of the activity feeds, pushed toasts.
 */
export const roundUnshown = (s: Pick<RoomState, "inFlight" | "withheld">): boolean => s.inFlight > 0 || Object.keys(s.withheld).length > 0;

/** Calls `release` each time the player's rounds are all shown again (see `roundUnshown`); answers the unsubscribe. */
export function onRoundsShown(release: () => void): () => void {
  return useRoom.subscribe((s, prev) => {
    if (roundUnshown(prev) && !roundUnshown(s)) release();
  });
}

/**
 * The table has shown the result of this answer (its result banner appeared; or the safety release of
 * `useRound`, when a table never shows it): its payout reaches the shown balance, and with the last one
 * withheld whatever waited for it (`onRoundsShown`).
 */
export function revealed(requestId: string): void {
  if (!(requestId in useRoom.getState().withheld)) return;
  useRoom.setState((s) => {
    const { [requestId]: payout = 0, ...rest } = s.withheld;
    const { [requestId]: net = 0, ...nets } = s.withheldNet;
    return { withheld: rest, withheldNet: nets, balanceNote: note("net", net, payout) };
  });
}

/**
 * A round of a shared room (the crash room, the blackjack table) settled for the player: the header's
 * chip tells its net figure. Its payout (`credit`, 0 for a loss) reaches the balance through the
 * player's casino room state, just before or just after this word.
 */
export const sharedRoundSettled = (net: number, credit: number): void => useRoom.setState({ balanceNote: note("net", net, credit) });

/** A stake of a shared room left the balance (through the room's state, just before or after this word). */
export const sharedStakePlaced = (stake: number): void => useRoom.setState({ balanceNote: note("stake", stake, -stake) });
