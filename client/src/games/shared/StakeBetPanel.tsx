import type { GameTableProps } from "../contract";
import type { AutoBetSupport } from "./AutoBet";
import { BetPanel, type BetPanelProps } from "./BetPanel";
import type { RoundControls } from "./use-round";
import type { StakeState } from "./use-stake";

type Wired = "game" | "total" | "pending" | "serverError" | "connected" | "balance" | "onBet" | "auto";

/**
 * The bet panel of a table whose bet is one stake (the panel's amount) on the table's params: the
 * panel is wired to the table's round (its requests and refusals), connection and balance here, once.
 */
export function StakeBetPanel<V>(
  props: Omit<BetPanelProps, Wired> & {
    table: GameTableProps;
    round: RoundControls<V>;
    stake: StakeState;
    /** busy beyond the round's own requests (an animation still playing) */
    pending?: boolean;
    /** auto-bet, for a single-step game: the pause between bets, so each outcome can be seen */
    autoDelayMs?: AutoBetSupport["delayMs"];
  },
) {
  const { table, round, stake, params, autoDelayMs, pending, ...rest } = props;
  return (
    <BetPanel
      {...rest}
      game={table.game}
      stake={stake}
      params={params}
      total={stake.amount}
      pending={pending ?? round.pending}
      serverError={round.error}
      connected={table.connection.connected}
      balance={table.balance}
      onBet={() => void round.bet(stake.amount, params)}
      auto={autoDelayMs === undefined ? undefined : { place: (amount) => round.bet(amount, params), delayMs: autoDelayMs }}
    />
  );
}
