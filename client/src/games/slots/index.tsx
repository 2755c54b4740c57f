import { formatMultiplier } from "../shared/format";
import type { ReactNode } from "react";
import { motion } from "motion/react";
import { PAY_TABLE, REELS, type SlotSymbol, type SlotsState } from "@casino/common/games/slots";
import type { GameTableProps } from "../contract";
import { StakeBetPanel } from "../shared/StakeBetPanel";
import { GameFrame } from "../shared/GameFrame";
import { PayTable } from "../shared/GameHelp";
import { BellIcon, CherryIcon, MelonIcon, OrangeIcon, PlumIcon } from "../shared/icons";
import { RoundResult } from "../shared/RoundResult";
import { useRound } from "../shared/use-round";
import { useStake } from "../shared/use-stake";

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

export default function SlotsTable(props: GameTableProps) {
  const { game, balance } = props;
  const round = useRound<SlotsState>(props, REVEAL_MS);
  const stake = useStake(game.id, balance);
  const last = round.round?.view ?? null;

  return (
    <GameFrame
      table={props}
      help={{
        rules: (
          <p>
            Three reels of {REELS[0]!.length} stops each spin; the centre line pays by the table below, read from the left reel. Pays are
            per coin bet, stake included, rounded down to whole coins.
          </p>
        ),
        payTable: (
          <PayTable
            head={["Line", "Pays for 1"]}
            rows={PAY_TABLE.map((r) => ({
              label: lineIcons(r.line),
              pays: formatMultiplier(r.pays),
              highlight: !!last && last.multiplier === r.pays && last.multiplier > 0,
            }))}
          />
        ),
      }}
      panel={(showHelp) => (
        <StakeBetPanel table={props} round={round} stake={stake} params={{}} label="Spin" onShowHelp={showHelp} autoDelayMs={REVEAL_MS} />
      )}
    >
      <div className="flex h-full min-h-72 flex-col items-center justify-center gap-5">
        <div
          className="relative flex gap-2 rounded-2xl bg-gradient-to-b from-amber-700 to-amber-900 p-3 shadow-2xl"
          data-testid="slots-reels"
        >
          {REELS.map((reel, r) => {
            const stop = last?.stops[r] ?? 0;
            // the strip repeated; at rest the centre row shows reel[stop] of the last copy but one
            const strip = Array.from({ length: LOOPS + 2 }, () => reel).flat();
            const rest = -(reel.length - 1) * ROW;
            const offset = last ? -(LOOPS * reel.length + stop - 1) * ROW : rest;
            return (
              <div key={r} className="relative w-20 overflow-hidden rounded-lg bg-white sm:w-24" style={{ height: ROW * 3 }}>
                <motion.div
                  key={round.settledCount}
                  initial={{ y: rest }}
                  animate={{ y: offset }}
                  transition={{ duration: last ? (SPIN_MS + r * REEL_STAGGER_MS) / 1000 : 0, ease: [0.15, 0.6, 0.25, 1] }}
                >
                  {strip.map((s, i) => (
                    <Symbol key={i} name={s} />
                  ))}
                </motion.div>
                <div className="pointer-events-none absolute inset-x-0 top-0 h-1/3 bg-gradient-to-b from-black/40 to-transparent" />
                <div className="pointer-events-none absolute inset-x-0 bottom-0 h-1/3 bg-gradient-to-t from-black/40 to-transparent" />
              </div>
            );
          })}
          <div className="pointer-events-none absolute inset-x-1 top-1/2 h-0.5 -translate-y-1/2 bg-rose-500/80" />
        </div>
        <p data-testid="slots-line" data-line={last?.line.join(" ") ?? ""} className="sr-only">
          {last ? last.line.join(", ") : ""}
        </p>
        <RoundResult round={round.round} />
      </div>
    </GameFrame>
  );
}
