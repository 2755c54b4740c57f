import { useMemo, type ReactNode } from "react";
import type { BetAnswer } from "@casino/common/protocol";
import type { GameTableProps } from "../contract";
import { chipClass, chipLabel, useChips, type ChipLayout } from "./chips";
import type { HelpContent } from "./GameHelp";
import { TableFrame, type RoundSteps } from "./TableFrame";
import { WonMark } from "./WonMark";
import { useRound, type RoundControls } from "./use-round";
import { useStake, type StakeState } from "./use-stake";

/** What a chip game declares once, beside its table: how its rounds reveal, its help and its bet panel's words. */
export interface ChipGame<V, S, P> {
  /** how long a settled round's reveal plays (ms, or from the answer) */
  reveal: number | ((answer: BetAnswer) => number);
  /** the game's help; a function of the table where the pay table marks the last round's line */
  help: HelpContent | ((table: ChipTable<V, S, P>) => HelpContent);
  /** the main button's text */
  label: string;
  /** what to do before the first chip ("Place a chip on the layout") */
  hint: string;
  /** test ids of the Undo and Clear buttons: `${testPrefix}-undo`, `${testPrefix}-clear` */
  testPrefix: string;
  /** auto-bet, for a single-step game: it replays the layout */
  auto?: boolean;
  /** turns the layout into the engine's params for a chip value */
  paramsOf(spots: { spot: S; chips: number }[], amount: number): P;
}

/** A table whose bet is chips on a layout (roulette, sic bo, baccarat, three card poker). */
export interface ChipTable<V, S, P> {
  props: GameTableProps;
  game: ChipGame<V, S, P>;
  round: RoundControls<V>;
  /** the round on the table: its view, null before the first round */
  view: V | null;
  /** the player can act in this game's open round now: one is open, no request is in flight, the room is up */
  ready: boolean;
  chips: ChipLayout<S>;
  stake: StakeState;
  /** the chip value, 0 while the field cannot be read */
  chip: number;
  /** the bet with every chip worth `amount` (auto-bet changes the amount) */
  betsFor(amount: number): P;
  /** the bet as the layout stands, null while no chip is down */
  params: P | null;
  /** the chip stack drawn on a spot, or nothing when the spot is empty */
  stack(key: string, size?: "sm" | "md"): ReactNode;
}

/**
 * The state of a chip table: the round, the chips on the layout and the chip value, which is the
 * panel's amount (so ½ / 2x / Max and auto-bet scale the whole layout).
 */
export function useChipTable<V, S, P>(props: GameTableProps, game: ChipGame<V, S, P>): ChipTable<V, S, P> {
  const round = useRound<V>(props, game.reveal);
  const chips = useChips<S>();
  const stake = useStake(props.game.id, props.balance, chips.count);
  const chip = Number.isFinite(stake.amount) ? stake.amount : 0;
  const betsFor = (amount: number) => game.paramsOf([...chips.spots.values()], amount);
  const params = useMemo(() => (chips.count > 0 ? betsFor(chip) : null), [chips.spots, chip]); // eslint-disable-line react-hooks/exhaustive-deps
  const stack = (key: string, size: "sm" | "md" = "md") => {
    const entry = chips.spots.get(key);
    return entry ? <span className={chipClass(size)}>{chipLabel(entry.chips * chip)}</span> : null;
  };
  const ready = !!round.open && !round.pending && props.connection.connected;
  return { props, game, round, view: round.round?.view ?? null, ready, chips, stake, chip, betsFor, params, stack };
}

/**
 * The frame of a chip table: its help, its bet panel (the amount is the chip value, the total is every
 * chip on the layout, Undo and Clear take chips back, auto-bet replays the layout) and its felt. A
 * multi-step game gives its round's steps in `panel`; while its round is open the chips stay where they are.
 */
export function ChipTableFrame<V, S, P>(props: {
  table: ChipTable<V, S, P>;
  panel?: RoundSteps & { children?: ReactNode };
  children: ReactNode;
}) {
  const { table } = props;
  const { round, chips, chip, params, game } = table;
  const { actions, roundActions, children } = props.panel ?? {};
  const locked = (actions !== undefined || roundActions !== undefined) && !!round.open;
  return (
    <TableFrame
      table={table}
      help={typeof game.help === "function" ? game.help(table) : game.help}
      steps={{ actions, roundActions }}
      bet={{
        total: chip * chips.count,
        params,
        paramsHint: chips.count === 0 ? game.hint : null,
        label: game.label,
        amountLabel: "Chip value",
        onBet: () => params && void round.bet(chip * chips.count, params),
        auto: game.auto ? { place: (amount) => round.bet(amount * chips.count, table.betsFor(amount)), delayMs: game.reveal } : undefined,
        children: (
          <>
            <UndoClear chips={chips} testPrefix={game.testPrefix} disabled={round.pending || locked || chips.count === 0} />
            {children}
          </>
        ),
      }}
    >
      {props.children}
    </TableFrame>
  );
}

/** The Undo and Clear buttons of a chip layout (test ids `${testPrefix}-undo`, `${testPrefix}-clear`). */
function UndoClear(props: { chips: Pick<ChipLayout<unknown>, "undo" | "clear">; testPrefix: string; disabled: boolean }) {
  return (
    <div className="grid grid-cols-2 gap-2">
      {(
        [
          ["undo", "Undo", props.chips.undo],
          ["clear", "Clear", props.chips.clear],
        ] as const
      ).map(([id, text, onClick]) => (
        <button
          key={id}
          type="button"
          data-testid={`${props.testPrefix}-${id}`}
          disabled={props.disabled}
          onClick={onClick}
          className="rounded-lg bg-muted py-2 font-medium hover:bg-border disabled:opacity-50"
        >
          {text}
        </button>
      ))}
    </div>
  );
}

/**
 * A spot of a chip layout: a button that takes a chip, marked when the round won it (`won`, told to a
 * screen reader too; absent where the spot is never marked) and showing its chips (`stack`) at `stackAt`.
 */
export function ChipSpot(props: {
  testId: string;
  className: string;
  onClick(): void;
  disabled?: boolean;
  won?: boolean;
  stack: ReactNode;
  /** where the stack sits on the spot (Tailwind position classes) */
  stackAt: string;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      data-testid={props.testId}
      data-won={props.won}
      disabled={props.disabled}
      onClick={props.onClick}
      className={props.className}
    >
      {props.children}
      {props.won && <WonMark />}
      {props.won && <span className="sr-only">, won</span>}
      {props.stack && <span className={`absolute ${props.stackAt}`}>{props.stack}</span>}
    </button>
  );
}
