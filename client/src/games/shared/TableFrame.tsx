import type { ReactNode } from "react";
import type { GameTableProps } from "../contract";
import { BetPanel, type BetPanelProps } from "./BetPanel";
import { blockedBy } from "./blocked";
import { RoundActions, type RoundAction } from "./ActionButton";
import { GameFrame } from "./GameFrame";
import type { HelpContent } from "./GameHelp";
import type { RoundControls } from "./use-round";
import type { StakeState } from "./use-stake";

/** The bet panel's props that a kit wires from the table itself. */
type Wired = "game" | "stake" | "pending" | "serverError" | "connected" | "balance" | "onShowHelp" | "locked" | "blocked" | "roundActions";

/** What every kit's table declares of its round's steps: none (a single-step game), a row of actions, or its own controls. */
export interface RoundSteps {
  /** a multi-step game's in-round actions, two to a row */
  actions?: RoundAction[];
  /** a multi-step game's own in-round controls (null while none is offered), in place of `actions` */
  roundActions?: ReactNode;
}

/**
 * The frame the table kits share: the game's help, the bet panel wired to the table's round (its
 * requests and refusals), connection and balance, and the felt (`children`). A multi-step table (one
 * with round steps) locks the panel while its round is open and is blocked while another game's is.
 */
export function TableFrame<V>(props: {
  table: { props: GameTableProps; round: RoundControls<V>; stake: StakeState };
  help: HelpContent;
  steps: RoundSteps;
  /** the bet panel as the kit wires it: what is staked, how to bet, the game's controls */
  bet: Omit<BetPanelProps, Wired> & { pending?: boolean };
  children: ReactNode;
}) {
  const { table, help, steps, bet } = props;
  const { round } = table;
  const { game, connection, balance } = table.props;
  const multiStep = steps.actions !== undefined || steps.roundActions !== undefined;
  const roundActions = steps.actions ? <RoundActions round={round} actions={steps.actions} /> : steps.roundActions;
  return (
    <GameFrame
      table={table.props}
      help={help}
      panel={(showHelp) => (
        <BetPanel
          {...bet}
          game={game}
          stake={table.stake}
          pending={bet.pending ?? round.pending}
          serverError={round.error}
          connected={connection.connected}
          balance={balance}
          onShowHelp={showHelp}
          {...(multiStep ? { locked: !!round.open, blocked: blockedBy(round.otherOpen), roundActions } : {})}
        />
      )}
    >
      {props.children}
    </GameFrame>
  );
}
