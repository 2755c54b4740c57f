import { useState, type CSSProperties, type ReactNode } from "react";
import { motion } from "motion/react";
import {
  INSIDE_SIZE,
  POCKETS,
  WHEEL_ORDER,
  coveredNumbers,
  insideBetProblem,
  pocketColor,
  type InsideType,
  type RouletteBet,
  type RouletteParams,
  type RouletteState,
} from "@casino/common/games/roulette/engine";
import type { GameTableProps } from "../contract";
import { PayTable, type HelpContent } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { ChipSpot, ChipTableFrame, useChipTable, type ChipGame } from "../shared/ChipTable";
import { Dialog } from "../shared/Dialog";
import { useMediaQuery } from "../../ui/useMediaQuery";

/** The wheel turns and the ball runs round its track, drops and settles in the pocket: instant in Turbo. */
const SPIN_MS = 2_800;
const STEP = 360 / POCKETS;
/** The ball's distance from the wheel's centre on its track and in a pocket (the wheel's radius is 100). */
const BALL_TRACK = 97;
const BALL_POCKET = 73;
/** Turns the ball runs the other way round before it drops. */
const BALL_TURNS = 3;

/** A bet on the layout without its amount (the chips set it). */
type Spot = { type: RouletteBet["type"]; numbers?: number[]; value?: 1 | 2 | 3 };
const spotKey = (s: Spot) => [s.type, ...(s.numbers ?? []), ...(s.value ? [s.value] : [])].join("-");
const toBet = (s: Spot, amount: number): RouletteBet => ({ ...s, amount }) as RouletteBet;

/** Cell of the layout: column c (0–11, left to right), row r (0–2, top to bottom). */
const numberAt = (c: number, r: number) => 3 * c + 3 - r;

interface Hotspot {
  spot: Spot;
  /** position within the number grid, in percent */
  x: number;
  y: number;
}

/** Every split, corner, street, six line, trio and first four of the layout, where a chip goes on a real table. */
function buildHotspots(): Hotspot[] {
  const spots: Hotspot[] = [];
  const add = (type: InsideType, numbers: number[], x: number, y: number) => {
    // only what the engine accepts is offered
    if (insideBetProblem(type, numbers) === undefined)
      spots.push({ spot: { type, numbers: [...numbers].sort((a, b) => a - b) }, x: x * 100, y: y * 100 });
  };
  for (let c = 0; c < 12; c++) {
    for (let r = 0; r < 3; r++) {
      const n = numberAt(c, r);
      if (c < 11) add("split", [n, n + 3], (c + 1) / 12, (r + 0.5) / 3);
      if (r < 2) add("split", [n, n - 1], (c + 0.5) / 12, (r + 1) / 3);
      if (c < 11 && r < 2) add("corner", [n - 1, n, n + 2, n + 3], (c + 1) / 12, (r + 1) / 3);
    }
    add("street", [3 * c + 1, 3 * c + 2, 3 * c + 3], (c + 0.5) / 12, 1);
    if (c < 11) add("sixLine", [3 * c + 1, 3 * c + 2, 3 * c + 3, 3 * c + 4, 3 * c + 5, 3 * c + 6], (c + 1) / 12, 1);
  }
  for (let r = 0; r < 3; r++) add("split", [0, 3 - r], 0, (r + 0.5) / 3);
  add("trio", [0, 2, 3], 0, 1 / 3);
  add("trio", [0, 1, 2], 0, 2 / 3);
  add("firstFour", [0, 1, 2, 3], 0, 1);
  return spots;
}
const HOTSPOTS = buildHotspots();

const OUTSIDE: { spot: Spot; label: string }[] = [
  { spot: { type: "low" }, label: "1–18" },
  { spot: { type: "even" }, label: "Even" },
  { spot: { type: "red" }, label: "Red" },
  { spot: { type: "black" }, label: "Black" },
  { spot: { type: "odd" }, label: "Odd" },
  { spot: { type: "high" }, label: "19–36" },
];

const colorClass = (n: number) =>
  pocketColor(n) === "red" ? "bg-rose-700" : pocketColor(n) === "black" ? "bg-slate-950" : "bg-emerald-700";
const OUTSIDE_CLASS: Partial<Record<Spot["type"], string>> = { red: "bg-rose-700 text-white", black: "bg-slate-950 text-white" };
const spotName = (s: Spot): string =>
  s.type === "straight"
    ? `Number ${s.numbers![0]}`
    : s.numbers
      ? `${INSIDE_LABEL[s.type as InsideType].split(" (")[0]} ${s.numbers.join("-")}`
      : s.type === "dozen"
        ? `Dozen ${(s.value! - 1) * 12 + 1} to ${s.value! * 12}`
        : s.type === "column"
          ? `Column ${s.value}`
          : (OUTSIDE.find((o) => o.spot.type === s.type)?.label ?? s.type);
const INSIDE_LABEL: Record<InsideType, string> = {
  straight: "Straight (one number)",
  split: "Split (two)",
  street: "Street (row of three)",
  corner: "Corner (four)",
  sixLine: "Six line (two rows)",
  trio: "Trio (0-1-2 or 0-2-3)",
  firstFour: "First four (0-1-2-3)",
};

function Wheel({ pocket, turn }: { pocket: number | null; turn: number }) {
  const index = pocket === null ? 0 : WHEEL_ORDER.indexOf(pocket);
  const rotation = turn * 5 * 360 - index * STEP;
  const r = 100;
  return (
    <div className="relative mx-auto aspect-square w-48 sm:w-56">
      <div className="absolute left-1/2 top-0 z-10 -ml-2 h-0 w-0 border-x-8 border-t-[14px] border-x-transparent border-t-amber-300" />
      <motion.svg
        viewBox="-105 -105 210 210"
        className="h-full w-full drop-shadow-xl"
        initial={false}
        animate={{ rotate: rotation }}
        transition={{ duration: turn === 0 ? 0 : SPIN_MS / 1000, ease: [0.12, 0.6, 0.2, 1] }}
      >
        <circle r={104} fill="#78350f" />
        {WHEEL_ORDER.map((n, i) => {
          const a0 = ((i - 0.5) * STEP - 90) * (Math.PI / 180);
          const a1 = ((i + 0.5) * STEP - 90) * (Math.PI / 180);
          const fill = pocketColor(n) === "red" ? "#be123c" : pocketColor(n) === "black" ? "#0f172a" : "#059669";
          const ta = (i * STEP - 90) * (Math.PI / 180);
          return (
            <g key={n} data-pocket={n}>
              <path
                d={`M0 0 L${r * Math.cos(a0)} ${r * Math.sin(a0)} A${r} ${r} 0 0 1 ${r * Math.cos(a1)} ${r * Math.sin(a1)} Z`}
                fill={fill}
                stroke="#fbbf24"
                strokeWidth={0.4}
              />
              <text
                x={86 * Math.cos(ta)}
                y={86 * Math.sin(ta)}
                fill="white"
                fontSize={8}
                fontWeight={700}
                textAnchor="middle"
                dominantBaseline="middle"
                transform={`rotate(${i * STEP} ${86 * Math.cos(ta)} ${86 * Math.sin(ta)})`}
              >
                {n}
              </text>
            </g>
          );
        })}
        <circle r={60} fill="#451a03" stroke="#fbbf24" strokeWidth={1} />
        <circle r={12} fill="#fbbf24" />
      </motion.svg>
      {/* The ball runs against the wheel and comes to rest in the landed pocket, under the pointer. */}
      <motion.svg
        viewBox="-105 -105 210 210"
        className="pointer-events-none absolute inset-0 h-full w-full"
        aria-hidden
        initial={false}
        animate={{ rotate: -turn * BALL_TURNS * 360 }}
        transition={{ duration: turn === 0 ? 0 : SPIN_MS / 1000, ease: [0.2, 0.55, 0.3, 1] }}
      >
        <motion.circle
          key={turn}
          data-testid="roulette-ball"
          cx={0}
          r={5}
          fill="#f8fafc"
          stroke="#94a3b8"
          strokeWidth={0.8}
          initial={false}
          animate={{ cy: turn === 0 ? -BALL_POCKET : [-BALL_TRACK, -BALL_TRACK, -BALL_POCKET - 6, -BALL_POCKET] }}
          transition={{ duration: turn === 0 ? 0 : SPIN_MS / 1000, times: [0, 0.62, 0.86, 1], ease: "easeOut" }}
        />
      </motion.svg>
    </div>
  );
}

/** The game's help: its rules and pay table. */
const HELP: HelpContent = {
  rules: (
    <>
      <p>
        European roulette: {POCKETS} pockets, 0 to 36. Pick a chip value in the panel, then place chips on the layout: on a number, on the
        line between two numbers (split), where four meet (corner), at the bottom edge of a row of three (street) or between two rows (six
        line), at the zero&apos;s edge (trio, first four), or on the outside bets. Every chip is worth the chip value.
      </p>
      <p className="mt-2">Zero loses every outside bet.</p>
    </>
  ),
  payTable: (
    <PayTable
      head={["Bet", "Pays"]}
      rows={[
        ...(Object.keys(INSIDE_SIZE) as InsideType[]).map((t) => ({ label: INSIDE_LABEL[t], pays: `${36 / INSIDE_SIZE[t] - 1}:1` })),
        { label: "Dozen or column (12 numbers)", pays: "2:1" },
        { label: "Red, black, odd, even, 1–18, 19–36", pays: "1:1" },
      ]}
    />
  ),
};

const ROULETTE: ChipGame<RouletteState, Spot, RouletteParams> = {
  reveal: SPIN_MS,
  help: HELP,
  label: "Spin",
  hint: "Place a chip on the layout",
  testPrefix: "roulette",
  auto: true,
  paramsOf: (spots, amount) => ({
    bets: spots.map(({ spot, chips: n }) => toBet(spot, n * amount)),
  }),
};

export default function RouletteTable(props: GameTableProps) {
  const table = useChipTable(props, ROULETTE);
  const { round, chips, view: last } = table;
  const landed = last && round.round?.answer ? last.pocket : null;
  // a phone gets the board upright, with the bets between numbers picked from a list
  const wide = useMediaQuery("(min-width: 40rem)");

  const place = (spot: Spot) => {
    if (round.pending) return;
    chips.add(spotKey(spot), spot);
  };
  const chipOn = (spot: Spot, size: "sm" | "md" = "md") => table.stack(spotKey(spot), size);
  /** whether the landed pocket wins this spot, bet on or not */
  const won = (spot: Spot) => landed !== null && coveredNumbers(toBet(spot, 1)).includes(landed);
  const cell = (spot: Spot, label: ReactNode, className: string, onPick: (spot: Spot) => void = place) => (
    <ChipSpot
      testId={`roulette-${spotKey(spot)}`}
      won={won(spot)}
      onClick={() => onPick(spot)}
      className={`relative flex min-w-0 items-center justify-center text-xs font-bold sm:text-sm ${className}`}
      stack={chipOn(spot)}
      stackAt="inset-0 flex items-center justify-center"
    >
      {spot.type === "column" && <span className="sr-only">{spotName(spot)}: </span>}
      {label}
    </ChipSpot>
  );
  const numberCell = (n: number, className: string, onPick?: (spot: Spot) => void) =>
    cell(
      { type: "straight", numbers: [n] },
      n,
      `won-outline border border-white/30 text-white hover:brightness-125 ${colorClass(n)} ${className}`,
      onPick,
    );
  const groupCell = (spot: Spot, label: ReactNode, className: string) =>
    cell(
      spot,
      label,
      `${OUTSIDE_CLASS[spot.type] ? `won-outline border border-white/30 ${OUTSIDE_CLASS[spot.type]}` : "felt-spot"} ${className}`,
    );

  return (
    <ChipTableFrame table={table}>
      <div className="flex flex-col gap-4" style={{ "--reveal-delay": `${SPIN_MS}ms` } as CSSProperties}>
        <div className="flex items-center justify-center gap-4 sm:gap-6">
          <Wheel pocket={landed} turn={round.settledCount} />
          <motion.div
            key={round.settledCount}
            data-testid="roulette-pocket"
            data-value={landed ?? ""}
            aria-label={landed === null ? undefined : `Landed on ${landed} ${pocketColor(landed)}`}
            role={landed === null ? undefined : "img"}
            initial={{ opacity: 0, scale: 0.5 }}
            animate={{ opacity: landed === null ? 0 : 1, scale: 1, transition: { delay: SPIN_MS / 1000 } }}
            className={`flex h-16 w-16 items-center justify-center rounded-full text-3xl font-black text-white shadow-lg ${landed === null ? "" : colorClass(landed)}`}
          >
            {landed}
          </motion.div>
        </div>
        {wide ? (
          <WideBoard cell={cell} numberCell={numberCell} groupCell={groupCell} place={place} chipOn={chipOn} />
        ) : (
          <UprightBoard
            table={table}
            numberCell={numberCell}
            groupCell={groupCell}
            place={place}
            chipOn={chipOn}
            lastBets={last?.bets ?? null}
          />
        )}
        <RoundResult round={round.round} bets={last?.bets.length} />
      </div>
    </ChipTableFrame>
  );
}

type CellOf = (spot: Spot, label: ReactNode, className: string, onPick?: (spot: Spot) => void) => ReactNode;
type NumberCellOf = (n: number, className: string, onPick?: (spot: Spot) => void) => ReactNode;
type GroupCellOf = (spot: Spot, label: ReactNode, className: string) => ReactNode;
type ChipOf = (spot: Spot, size?: "sm" | "md") => ReactNode;

/** The layout as it lies on a real table: numbers in three rows, a chip spot on every line and corner. */
function WideBoard(props: { cell: CellOf; numberCell: NumberCellOf; groupCell: GroupCellOf; place(spot: Spot): void; chipOn: ChipOf }) {
  const { cell, numberCell, groupCell, place, chipOn } = props;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-1 pb-2 select-none">
      <div className="flex h-36 sm:h-40">
        {cell(
          { type: "straight", numbers: [0] },
          "0",
          `won-outline w-[7%] rounded-l-xl border border-white/30 text-white ${colorClass(0)}`,
        )}
        <div className="relative grid flex-1 grid-cols-12 grid-rows-3">
          {Array.from({ length: 3 }, (_, r) =>
            Array.from({ length: 12 }, (_, c) => {
              const n = numberAt(c, r);
              return (
                <div key={n} className="contents">
                  {numberCell(n, "")}
                </div>
              );
            }),
          )}
          {HOTSPOTS.map((h) => (
            <button
              key={spotKey(h.spot)}
              type="button"
              data-testid={`roulette-${spotKey(h.spot)}`}
              title={spotName(h.spot)}
              onClick={() => place(h.spot)}
              className="absolute z-10 flex h-5 w-5 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full hover:bg-amber-300/70"
              style={{ left: `${h.x}%`, top: `${h.y}%` }}
            >
              <span className="sr-only">{spotName(h.spot)}</span>
              {chipOn(h.spot, "sm")}
            </button>
          ))}
        </div>
        <div className="grid w-[7%] grid-rows-3">
          {([3, 2, 1] as const).map((v) => (
            <div key={v} className="contents">
              {groupCell({ type: "column", value: v }, "2:1", "last:rounded-br-xl first:rounded-tr-xl")}
            </div>
          ))}
        </div>
      </div>
      <div className="ml-[7%] mr-[7%] mt-2 grid h-10 grid-cols-3">
        {([1, 2, 3] as const).map((v) => (
          <div key={v} className="contents">
            {groupCell({ type: "dozen", value: v }, `${(v - 1) * 12 + 1}–${v * 12}`, "")}
          </div>
        ))}
      </div>
      <div className="ml-[7%] mr-[7%] grid h-10 grid-cols-6">
        {OUTSIDE.map((o) => (
          <div key={o.label} className="contents">
            {groupCell(o.spot, o.label, "")}
          </div>
        ))}
      </div>
    </div>
  );
}

/** The kinds of inside bet a phone player picks from, for a tap on a number. */
const PICKS: { type: InsideType; label: string }[] = [
  { type: "straight", label: "Number" },
  { type: "split", label: "Split" },
  { type: "street", label: "Street" },
  { type: "corner", label: "Corner" },
  { type: "sixLine", label: "Six line" },
  { type: "trio", label: "Trio" },
  { type: "firstFour", label: "First four" },
];

/**
 * The layout upright for a phone: zero on top, twelve rows of three, dozens and even-money bets down the
 * side, every spot at least 32 px. The bets between numbers are too small to touch there: the player
 * picks the kind of bet, taps a number and chooses from the bets of that kind that hold it (a number
 * with one such bet takes the chip at once). Their chips are drawn on the lines, as on a real table.
 */
function UprightBoard(props: {
  table: { chips: { spots: Map<string, { spot: Spot; chips: number }> } };
  numberCell: NumberCellOf;
  groupCell: GroupCellOf;
  place(spot: Spot): void;
  chipOn: ChipOf;
  lastBets: RouletteState["bets"] | null;
}) {
  const { numberCell, groupCell, place, chipOn } = props;
  const [kind, setKind] = useState<InsideType>("straight");
  const [choosing, setChoosing] = useState<{ number: number; spots: Spot[] } | null>(null);
  const pick = (spot: Spot) => {
    const n = spot.numbers![0]!;
    if (kind === "straight") return place(spot);
    const spots = HOTSPOTS.map((h) => h.spot).filter((s) => s.type === kind && s.numbers!.includes(n));
    if (spots.length === 1) return place(spots[0]!);
    setChoosing({ number: n, spots });
  };
  const placed = [...props.table.chips.spots.values()].filter(({ spot }) => spot.numbers && spot.type !== "straight");
  const wonKeys = new Set((props.lastBets ?? []).filter((b) => b.win).map((b) => spotKey(b.bet as Spot)));
  return (
    <div className="flex flex-col gap-2 select-none" data-testid="roulette-upright">
      <label className="flex items-center justify-between gap-2 text-sm">
        <span className="text-muted-foreground">A tap on a number bets</span>
        <select
          data-testid="roulette-pick-kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as InsideType)}
          className="h-10 rounded-lg border border-border bg-background px-2 text-foreground"
        >
          {PICKS.map((p) => (
            <option key={p.type} value={p.type}>
              {p.label}
            </option>
          ))}
        </select>
      </label>
      <div className="grid grid-cols-[2.25rem_2.25rem_repeat(3,minmax(0,1fr))] grid-rows-[repeat(14,2.5rem)] gap-0.5">
        <div className="col-span-3 col-start-3 row-start-1 grid">{numberCell(0, "rounded-t-xl", pick)}</div>
        {([1, 2, 3] as const).map((v) => (
          <div key={`dozen-${v}`} className="col-start-2 grid" style={{ gridRow: `${2 + 4 * (v - 1)} / span 4` }}>
            {groupCell(
              { type: "dozen", value: v },
              <span className="[writing-mode:vertical-rl]">{`${(v - 1) * 12 + 1}–${v * 12}`}</span>,
              "rounded-md",
            )}
          </div>
        ))}
        {OUTSIDE.map((o, i) => (
          <div key={o.label} className="col-start-1 grid" style={{ gridRow: `${2 + 2 * i} / span 2` }}>
            {groupCell(o.spot, <span className="[writing-mode:vertical-rl]">{o.label}</span>, "rounded-md")}
          </div>
        ))}
        <div className="relative col-span-3 col-start-3 row-span-12 row-start-2 grid grid-cols-3 grid-rows-12 gap-0.5">
          {Array.from({ length: 12 }, (_, row) =>
            [1, 2, 3].map((k) => (
              <div key={3 * row + k} className="grid">
                {numberCell(3 * row + k, "", pick)}
              </div>
            )),
          )}
          {/* chips on lines and corners, where the wide board has its spots (rows and columns swapped) */}
          {placed.map(({ spot }) => {
            const h = HOTSPOTS.find((x) => spotKey(x.spot) === spotKey(spot))!;
            return (
              <span
                key={spotKey(spot)}
                data-testid={`roulette-marker-${spotKey(spot)}`}
                className={`pointer-events-none absolute z-10 -translate-x-1/2 -translate-y-1/2 rounded-full ${wonKeys.has(spotKey(spot)) ? "ring-2 ring-positive" : ""}`}
                style={{ left: `${100 - h.y}%`, top: `${h.x}%` }}
              >
                {chipOn(spot, "sm")}
              </span>
            );
          })}
        </div>
        {([1, 2, 3] as const).map((v) => (
          <div key={`column-${v}`} className="row-start-14 grid" style={{ gridColumn: `${2 + v}` }}>
            {groupCell({ type: "column", value: v }, "2:1", v === 1 ? "rounded-bl-xl" : v === 3 ? "rounded-br-xl" : "")}
          </div>
        ))}
      </div>
      <Dialog
        open={choosing !== null}
        onClose={() => setChoosing(null)}
        title={choosing ? `${PICKS.find((p) => p.type === kind)!.label} bets with ${choosing.number}` : ""}
        testId="roulette-pick"
      >
        <div className="grid grid-cols-2 gap-2">
          {choosing?.spots.map((spot) => (
            <button
              key={spotKey(spot)}
              type="button"
              data-testid={`roulette-${spotKey(spot)}`}
              onClick={() => {
                place(spot);
                setChoosing(null);
              }}
              className="felt-spot relative min-h-11 rounded-lg px-2 font-semibold tabular-nums"
            >
              {spot.numbers!.join("–")}
              <span className="absolute -right-1 -top-1">{chipOn(spot, "sm")}</span>
            </button>
          ))}
        </div>
      </Dialog>
    </div>
  );
}
