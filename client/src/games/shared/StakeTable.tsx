import type { ReactNode } from "react";
import type { BetAnswer } from "@casino/common/protocol";
import type { GameTableProps } from "../contract";
import type { BetPanelProps } from "./BetPanel";
import type { HelpContent } from "./GameHelp";
import { TableFrame, type RoundSteps } from "./TableFrame";
import { TargetField, type TargetState } from "./TargetField";
import { useRound, type RoundControls, type ShownRound } from "./use-round";
import { useStake, type StakeState, type StakeText } from "./use-stake";

/** What a one-stake game declares once, beside its table: how its rounds reveal, its help and its main button. */
export interface StakeGame<V> {
  /** how long a settled round's reveal plays (ms, or from the answer) */
  reveal: number | ((answer: BetAnswer) => number);
  /**
   * the game's help: a function of the table where the pay table marks the last round's line; absent
   * where it depends on the player's own choices (keno's picks, the mines chosen) and the frame is given it
   */
  help?: HelpContent | ((table: StakeTable<V>) => HelpContent);
  /** the main button's text: Bet, Deal, Spin, Roll… */
  label: string;
  /** the label of the amount field (poker's Ante) */
  amountLabel?: string;
  /** auto-bet, for a single-step game, pausing `reveal` between bets so each outcome can be seen */
  auto?: boolean;
}

/** A table whose bet is one stake (the panel's amount) on the table's params. */
export interface StakeTable<V> {
  props: GameTableProps;
  game: StakeGame<V>;
  round: RoundControls<V>;
  stake: StakeState;
  /** the round on the table: its view, null before the first round */
  view: V | null;
  /** this game's open round, null when none is open */
  open: ShownRound<V> | null;
  /** the player can act in the open round now: one is open, no request is in flight, the room is up */
  ready: boolean;
}

/** The state of a one-stake table: its round and its amount (`held` when the game's modes share one). */
export function useStakeTable<V>(props: GameTableProps, game: StakeGame<V>, held?: StakeText): StakeTable<V> {
  const round = useRound<V>(props, game.reveal);
  const stake = useStake(props.game.id, props.balance, 1, held);
  const open = round.open;
  const ready = !!open && !round.pending && props.connection.connected;
  return { props, game, round, stake, view: round.round?.view ?? null, open, ready };
}

/** What a one-stake table declares of its bet panel as it renders; the rest is wired to the table once. */
type StakePanel = Pick<BetPanelProps, "paramsProblem" | "paramsHint" | "children"> &
  RoundSteps & {
    /** the engine's params of the bet; none (`{}`) by default */
    params?: unknown;
    /** busy beyond the round's own requests (an animation still playing) */
    pending?: boolean;
    /** the number the player types for the bet (a target, a cash-out): its field heads the controls, its problem stops the bet */
    target?: { field: TargetState; label: string; testId: string; beside?: ReactNode };
  };

/**
 * The frame of a one-stake table: its help, its bet panel (the stake on the declared params) and its
 * felt. `help` replaces the game's where it depends on the table's own choices (the mines chosen).
 */
export function StakeTableFrame<V>(props: { table: StakeTable<V>; panel: StakePanel; help?: HelpContent; children: ReactNode }) {
  const { table } = props;
  const { round, stake, game } = table;
  const { params = {}, target, actions, roundActions, children: controls, ...rest } = props.panel;
  const field = target && <TargetField label={target.label} testId={target.testId} target={target.field} disabled={round.pending} />;
  return (
    <TableFrame
      table={table}
      help={props.help ?? (typeof game.help === "function" ? game.help(table) : game.help!)}
      steps={{ actions, roundActions }}
      bet={{
        ...rest,
        label: game.label,
        amountLabel: game.amountLabel,
        params,
        paramsProblem: target ? target.field.problem : rest.paramsProblem,
        total: stake.amount,
        onBet: () => void round.bet(stake.amount, params),
        auto: game.auto ? { place: (amount) => round.bet(amount, params), delayMs: game.reveal } : undefined,
        children: (
          <>
            {target?.beside ? (
              <div className="grid grid-cols-2 gap-2">
                {field}
                {target.beside}
              </div>
            ) : (
              field
            )}
            {controls}
          </>
        ),
      }}
    >
      {props.children}
    </TableFrame>
  );
}
