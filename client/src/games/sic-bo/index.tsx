import type { CSSProperties, ReactNode } from "react";
import {
  DICE_COUNT,
  ODDS,
  TOTAL_ODDS,
  winningOdds,
  type SicBoBet,
  type SicBoParams,
  type SicBoState,
} from "@casino/common/games/sic-bo/engine";
import type { GameTableProps } from "../contract";
import { Die } from "../shared/Dice";
import { PayTable, type HelpContent } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { ChipSpot, ChipTableFrame, useChipTable, type ChipGame } from "../shared/ChipTable";

const REVEAL_MS = 900;
const FACES = [1, 2, 3, 4, 5, 6] as const;
const TOTALS = Object.keys(TOTAL_ODDS).map(Number);
const PAIRS: [number, number][] = [];
for (let a = 1; a <= 6; a++) for (let b = a + 1; b <= 6; b++) PAIRS.push([a, b]);

/** A bet on the board without its amount (the chips set it). */
type Spot = SicBoBet extends infer B ? (B extends unknown ? Omit<B, "amount"> : never) : never;
const spotKey = (s: Spot): string => ("numbers" in s ? `${s.type}-${s.numbers.join("-")}` : "value" in s ? `${s.type}-${s.value}` : s.type);

const pips = (n: number) => ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"][n];

/** The game's help: its rules and pay table. */
const HELP: HelpContent = {
  rules: (
    <>
      <p>
        {DICE_COUNT} dice are rolled. Place chips (each worth the chip value) on the board: small (total 4–10) or big (11–17), a total, a
        specific or any triple, a specific double, two different faces, or a single face (paid once per die showing it).
      </p>
      <p className="mt-2">Small and big lose on any triple.</p>
    </>
  ),
  payTable: (
    <PayTable
      head={["Bet", "Pays"]}
      rows={[
        { label: "Small / Big", pays: `${ODDS.smallBig}:1` },
        ...TOTALS.filter((t) => t <= 10).map((t) => ({ label: `Total ${t} or ${21 - t}`, pays: `${TOTAL_ODDS[t]}:1` })),
        { label: "Specific triple", pays: `${ODDS.specificTriple}:1` },
        { label: "Any triple", pays: `${ODDS.anyTriple}:1` },
        { label: "Specific double", pays: `${ODDS.specificDouble}:1` },
        { label: "Two-dice combination", pays: `${ODDS.combination}:1` },
        {
          label: "Single face on 1 / 2 / 3 dice",
          pays: ODDS.single
            .slice(1)
            .map((o) => `${o}:1`)
            .join(" / "),
        },
      ]}
    />
  ),
};

const SIC_BO: ChipGame<SicBoState, Spot, SicBoParams> = {
  reveal: REVEAL_MS,
  help: HELP,
  label: "Roll",
  hint: "Place a chip on the board",
  testPrefix: "sicbo",
  auto: true,
  paramsOf: (spots, amount) => ({
    bets: spots.map(({ spot, chips: n }) => ({ ...spot, amount: n * amount }) as SicBoBet),
  }),
};

export default function SicBoTable(props: GameTableProps) {
  const table = useChipTable(props, SIC_BO);
  const { round, chips, view: last } = table;

  // every area the dice won, bet on or not, once they have landed
  const shownDice = last && round.round?.done ? last.dice : null;
  const won = (spot: Spot) => !!shownDice && winningOdds({ ...spot, amount: 1 } as SicBoBet, shownDice) !== undefined;
  const cell = (spot: Spot, label: ReactNode, odds: string, name: string, className = "") => {
    return (
      <ChipSpot
        key={spotKey(spot)}
        testId={`sicbo-${spotKey(spot)}`}
        won={won(spot)}
        onClick={() => !round.pending && chips.add(spotKey(spot), spot)}
        className={`felt-spot relative flex min-h-12 min-w-0 flex-col items-center justify-center rounded-md px-0.5 py-1 text-xs font-bold ${className}`}
        stack={table.stack(spotKey(spot), "sm")}
        stackAt="-right-1 -top-1"
      >
        <span className="sr-only">{name}: </span>
        <span className="leading-tight" aria-hidden>
          {label}
        </span>
        <span className="text-[10px] font-normal text-muted-foreground">{odds}</span>
      </ChipSpot>
    );
  };

  return (
    <ChipTableFrame table={table}>
      <div className="flex flex-col gap-3" style={{ "--reveal-delay": `${REVEAL_MS}ms` } as CSSProperties}>
        <div className="flex items-center justify-center gap-3" data-testid="sicbo-dice" data-dice={last?.dice.join(",") ?? ""}>
          {Array.from({ length: DICE_COUNT }, (_, i) => (
            <Die key={i} face={last?.dice[i] ?? null} rollKey={round.settledCount} index={i} testId={`sicbo-die-${i}`} />
          ))}
          {last && <span className="ml-2 text-2xl font-black tabular-nums">= {last.total}</span>}
        </div>
        {/* on a phone small and big share a row and the triples take the next, so no spot is squeezed */}
        <div className="grid grid-cols-2 gap-1 sm:grid-cols-[1fr_3fr_1fr]">
          {cell({ type: "small" }, "SMALL 4–10", `${ODDS.smallBig}:1`, "Small, 4 to 10", "text-sm")}
          <div className="grid grid-cols-7 gap-1 max-sm:order-last max-sm:col-span-2">
            {FACES.map((f) =>
              cell({ type: "triple", value: f }, `${pips(f)}${pips(f)}${pips(f)}`, `${ODDS.specificTriple}:1`, `Triple ${f}`),
            )}
            {cell({ type: "anyTriple" }, "ANY", `${ODDS.anyTriple}:1`, "Any triple")}
          </div>
          {cell({ type: "big" }, "BIG 11–17", `${ODDS.smallBig}:1`, "Big, 11 to 17", "text-sm")}
        </div>
        <div className="grid grid-cols-7 gap-1 sm:grid-cols-14">
          {TOTALS.map((t) => cell({ type: "total", value: t }, t, `${TOTAL_ODDS[t]}:1`, `Total ${t}`))}
        </div>
        <div className="grid grid-cols-6 gap-1">
          {FACES.map((f) => cell({ type: "double", value: f }, `${pips(f)}${pips(f)}`, `${ODDS.specificDouble}:1`, `Double ${f}`))}
        </div>
        <div className="grid grid-cols-5 gap-1 sm:grid-cols-15">
          {PAIRS.map(([a, b]) =>
            cell({ type: "combination", numbers: [a, b] }, `${pips(a)}${pips(b)}`, `${ODDS.combination}:1`, `${a} and ${b}`),
          )}
        </div>
        <div className="grid grid-cols-6 gap-1">
          {FACES.map((f) => cell({ type: "single", value: f }, <span className="text-lg">{pips(f)}</span>, "1–3:1", `Single ${f}`))}
        </div>
        <RoundResult round={round.round} bets={last?.bets.length} />
      </div>
    </ChipTableFrame>
  );
}
