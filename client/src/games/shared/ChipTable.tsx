import { useMemo, type ReactNode } from "react";
import type { BetAnswer } from "@casino/common/protocol";
import type { GameTableProps } from "../contract";
import { BetPanel } from "./BetPanel";
import { chipClass, chipLabel, useChips, type ChipLayout } from "./chips";
import { useRound, type RoundControls } from "./use-round";
import { useStake, type StakeState } from "./use-stake";

type Reveal = number | ((answer: BetAnswer) => number);

/** A table whose bet is chips on a layout (roulette, sic bo, baccarat, three card poker). */
export interface ChipTable<V, S, P> {
  props: GameTableProps;
  round: RoundControls<V>;
  chips: ChipLayout<S>;
  stake: StakeState;
  /** the chip value, 0 while the field cannot be read */
  chip: number;
  /** the bet with every chip worth `amount` (auto-bet changes the amount) */
  betsFor(amount: number): P;
  /** the bet as the layout stands, null while no chip is down */
  params: P | null;
  reveal: Reveal;
  /** the chip stack drawn on a spot, or nothing when the spot is empty */
  stack(key: string, size?: "sm" | "md"): ReactNode;
}

/**
 * The state of a chip table: the round, the chips on the layout and the chip value, which is the
 * panel's amount (so ½ / 2x / Max and auto-bet scale the whole layout). `paramsOf` turns the layout into
 * the engine's params for a chip value.
 */
export function useChipTable<V, S, P>(
  props: GameTableProps,
  reveal: Reveal,
  paramsOf: (spots: { spot: S; chips: number }[], amount: number) => P,
): ChipTable<V, S, P> {
  const round = useRound<V>(props, reveal);
  const chips = useChips<S>();
  const stake = useStake(props.game.id, props.balance, chips.count);
  const chip = Number.isFinite(stake.amount) ? stake.amount : 0;
  const betsFor = (amount: number) => paramsOf([...chips.spots.values()], amount);
  const params = useMemo(() => (chips.count > 0 ? betsFor(chip) : null), [chips.spots, chip]); // eslint-disable-line react-hooks/exhaustive-deps
  const stack = (key: string, size: "sm" | "md" = "md") => {
    const entry = chips.spots.get(key);
    return entry ? <span className={chipClass(size)}>{chipLabel(entry.chips * chip)}</span> : null;
  };
  return { props, round, chips, stake, chip, betsFor, params, reveal, stack };
}

/**
 * The bet panel of a chip table: the amount is the chip value, the total is every chip on the layout,
 * Undo and Clear take chips back, and auto-bet replays the layout (single-step games only).
 */
export function ChipBetPanel<V, S, P>(props: {
  table: ChipTable<V, S, P>;
  onShowHelp(): void;
  /** the main button's text */
  label: string;
  /** what to do before the first chip ("Place a chip on the layout") */
  hint: string;
  /** test ids of the Undo and Clear buttons: `${testPrefix}-undo`, `${testPrefix}-clear` */
  testPrefix: string;
  /** auto-bet, for a single-step game */
  auto?: boolean;
  /** a round is open: the chips stay where they are and `roundActions` replace the main button */
  locked?: boolean;
  blocked?: string | null;
  roundActions?: ReactNode;
  children?: ReactNode;
}) {
  const { table, locked } = props;
  const { round, chips, chip, params, stake } = table;
  const { game, balance, connection } = table.props;
  const idle = round.pending || !!locked || chips.count === 0;
  return (
    <BetPanel
      game={game}
      stake={stake}
      total={chip * chips.count}
      params={params}
      paramsHint={chips.count === 0 ? props.hint : null}
      pending={round.pending}
      serverError={round.error}
      connected={connection.connected}
      balance={balance}
      label={props.label}
      amountLabel="Chip value"
      onBet={() => params && void round.bet(chip * chips.count, params)}
      onShowHelp={props.onShowHelp}
      auto={props.auto ? { place: (amount) => round.bet(amount * chips.count, table.betsFor(amount)), delayMs: table.reveal } : undefined}
      locked={locked}
      blocked={props.blocked}
      roundActions={props.roundActions}
    >
      <div className="grid grid-cols-2 gap-2">
        {(
          [
            ["undo", "Undo", chips.undo],
            ["clear", "Clear", chips.clear],
          ] as const
        ).map(([id, text, onClick]) => (
          <button
            key={id}
            type="button"
            data-testid={`${props.testPrefix}-${id}`}
            disabled={idle}
            onClick={onClick}
            className="rounded-lg bg-muted py-2 font-medium hover:bg-border disabled:opacity-50"
          >
            {text}
          </button>
        ))}
      </div>
      {props.children}
    </BetPanel>
  );
}
