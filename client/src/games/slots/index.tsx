import { formatMultiplier } from "../shared/format";
import { memo, type ReactNode } from "react";
import { motion } from "motion/react";
import { PAY_TABLE, PAYS, REELS, type SlotSymbol, type SlotsState } from "@casino/common/games/slots/engine";
import type { GameTableProps } from "../contract";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { PayTable } from "../shared/GameHelp";
import { BellIcon, CherryIcon, MelonIcon, OrangeIcon, PlumIcon } from "../shared/icons";
import { RoundResult } from "../shared/RoundResult";

const SPIN_MS = 700;
const REEL_STAGGER_MS = 150;
const REVEAL_MS = SPIN_MS + 2 * REEL_STAGGER_MS;
const ROW = 72; // px per symbol
const LOOPS = 3; // whole strips passed before stopping

const BarIcon = ({ size = 48 }: { size?: number }) => (
  <span
    className="rounded bg-slate-900 px-1.5 py-0.5 font-black tracking-widest text-amber-300 ring-2 ring-amber-300"
    style={{ fontSize: size * 0.38 }}
  >
    BAR
  </span>
);
const ICON: Record<SlotSymbol, (p: { size?: number }) => ReactNode> = {
  cherry: CherryIcon,
  orange: OrangeIcon,
  plum: PlumIcon,
  bell: BellIcon,
  melon: MelonIcon,
  bar: BarIcon,
};

function Symbol({ name }: { name: SlotSymbol }) {
  const Icon = ICON[name];
  return (
    <div className="flex items-center justify-center" style={{ height: ROW }} title={name}>
      <Icon size={52} />
    </div>
  );
}

/** "cherry cherry any-other" as icons */
const lineIcons = (line: string) =>
  line.split(" ").map((w, i) => (
    <span key={i} className="mr-1 whitespace-nowrap">
      {w.split("-or-").map((part, j) => (
        <span key={j}>
          {j > 0 && <span className="text-muted-foreground"> or </span>}
          {part in ICON ? (
            <span className="inline-block align-middle">{ICON[part as SlotSymbol]({ size: 22 })}</span>
          ) : (
            <span className="text-muted-foreground">{part.replace("-", " ")}</span>
          )}
        </span>
      ))}
    </span>
  ));

/**
 * One reel. Spinning, it scrolls a strip of the reel repeated (LOOPS + 2 copies) to the stop; in Turbo
 * (results at once) it shows only the three rows in the window, which keeps the result's render small:
 * remounting the whole strip of every reel at each result was most of the click-to-result time.
 * Memoised, so the table's other renders (pending, balance, stake) leave the reels alone.
 */
const Reel = memo(function Reel({ reel, stop, spin, fast }: { reel: number; stop: number | null; spin: number; fast: boolean }) {
  const symbols = REELS[reel]!;
  const n = symbols.length;
  // at rest (no spin yet) the window shows the reel's last, first and second stops, as the strip did
  const centre = stop ?? 0;
  const frame = "relative w-20 overflow-hidden rounded-lg bg-white sm:w-24";
  const shade = (
    <>
      <div className="pointer-events-none absolute inset-x-0 top-0 h-1/3 bg-gradient-to-b from-black/40 to-transparent" />
      <div className="pointer-events-none absolute inset-x-0 bottom-0 h-1/3 bg-gradient-to-t from-black/40 to-transparent" />
    </>
  );
  if (fast || stop === null) {
    return (
      <div className={frame} style={{ height: ROW * 3 }}>
        {[-1, 0, 1].map((d) => (
          <Symbol key={d} name={symbols[(centre + d + n) % n]!} />
        ))}
        {shade}
      </div>
    );
  }
  // the strip repeated; at rest the centre row shows reel[stop] of the last copy but one
  const rest = -(n - 1) * ROW;
  const offset = -(LOOPS * n + stop - 1) * ROW;
  return (
    <div className={frame} style={{ height: ROW * 3 }}>
      <motion.div
        key={spin}
        initial={{ y: rest }}
        animate={{ y: offset }}
        transition={{ duration: (SPIN_MS + reel * REEL_STAGGER_MS) / 1000, ease: [0.15, 0.6, 0.25, 1] }}
      >
        <Strip reel={reel} />
      </motion.div>
      {shade}
    </div>
  );
});

/** A reel's symbols, LOOPS + 2 times over: built once per reel. */
const Strip = memo(function Strip({ reel }: { reel: number }) {
  const symbols = REELS[reel]!;
  return Array.from({ length: LOOPS + 2 }, () => symbols)
    .flat()
    .map((s, i) => <Symbol key={i} name={s} />);
});

/** The rules of the game, for its help. */
const RULES = (
  <ul className="list-disc space-y-1 pl-5">
    <li>Press Spin: the three reels turn and stop. Only the middle row counts, the one the red line crosses.</li>
    <li>
      Read that row from the left reel: when it matches a line of the table below, you win your bet times that line&apos;s number, your bet
      included: two cherries pay {formatMultiplier(PAYS.cherryCherry)}, so a 10-coin bet gives back {10 * PAYS.cherryCherry} coins.
    </li>
    <li>In the third reel a bar stands in for a melon, bell, plum or orange. A row that matches no line loses the bet.</li>
  </ul>
);

const SLOTS: StakeGame<SlotsState> = {
  reveal: REVEAL_MS,
  help: ({ view: last }) => ({
    rules: RULES,
    payTable: (
      <PayTable
        head={["Middle row, from the left", "Bet times"]}
        rows={PAY_TABLE.map((r) => ({
          label: lineIcons(r.line),
          pays: formatMultiplier(r.pays),
          highlight: !!last && last.multiplier === r.pays && last.multiplier > 0,
        }))}
      />
    ),
  }),
  label: "Spin",
  auto: true,
};

export default function SlotsTable(props: GameTableProps) {
  const table = useStakeTable(props, SLOTS);
  const { round, view: last } = table;

  return (
    <StakeTableFrame table={table} panel={{}}>
      <div className="flex h-full min-h-72 flex-col items-center justify-center gap-5">
        <div
          className="relative flex gap-2 rounded-2xl bg-gradient-to-b from-amber-700 to-amber-900 p-3 shadow-2xl"
          data-testid="slots-reels"
        >
          {REELS.map((_, r) => (
            <Reel key={r} reel={r} stop={last?.stops[r] ?? null} spin={round.settledCount} fast={round.fast} />
          ))}
          <div className="pointer-events-none absolute inset-x-1 top-1/2 h-0.5 -translate-y-1/2 bg-rose-500/80" />
        </div>
        <p data-testid="slots-line" data-line={last?.line.join(" ") ?? ""} className="sr-only">
          {last ? last.line.join(", ") : ""}
        </p>
        <RoundResult round={round.round} />
      </div>
    </StakeTableFrame>
  );
}
