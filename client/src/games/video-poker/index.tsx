import { useState } from "react";
import { motion } from "motion/react";
import { PAYS, type VideoPokerHand } from "@casino/common/games/video-poker/engine";
import type { Card } from "@casino/common/games/cards";
import type { GameTableProps } from "../contract";
import { StakeTableFrame, useStakeTable, type StakeGame, type StakeTable } from "../shared/StakeTable";
import { RoundFoot } from "../shared/CardTable";
import { PlayingCard, handName } from "../shared/Cards";
import { PayTable } from "../shared/GameHelp";

/** The engine's view (common/games/video-poker). */
interface VideoPokerView {
  bet: number;
  hand: Card[];
  dealtHand: VideoPokerHand;
  held?: boolean[];
  final?: Card[];
  finalHand?: VideoPokerHand;
  paysPerCredit?: number;
}

const REVEAL_MS = 700;
const NO_HOLDS = [false, false, false, false, false];
const PAYING = (Object.entries(PAYS) as [VideoPokerHand, number][]).filter(([, p]) => p > 0);
const lineName = (h: VideoPokerHand) => (h === "jacks-or-better" ? "Jacks or better" : handName(h));

/** The rules of the game, for its help. */
const RULES = (
  <ul className="list-disc space-y-1 pl-5">
    <li>Jacks or Better, one deck. You are dealt five cards; tap the ones to keep (HELD), then Draw: the others are replaced.</li>
    <li>Your final hand pays by the table, per coin bet. A pair pays only if it is jacks or better.</li>
    <li>The royal flush pays {PAYS["royal-flush"]} per coin at any bet.</li>
  </ul>
);

/** The pay table's line the hand makes: the final hand, or the dealt one while the round is open. */
const litLine = ({ view, open }: StakeTable<VideoPokerView>): VideoPokerHand | null =>
  view ? (view.finalHand ?? (open ? view.dealtHand : null)) : null;

const VIDEO_POKER: StakeGame<VideoPokerView> = {
  reveal: REVEAL_MS,
  help: (table) => ({
    rules: RULES,
    payTable: (
      <PayTable
        head={["Hand", "Pays per coin"]}
        rows={PAYING.map(([h, p]) => ({ label: lineName(h), pays: `${p}`, highlight: litLine(table) === h }))}
      />
    ),
  }),
  label: "Deal",
};

export default function VideoPokerTable(props: GameTableProps) {
  const table = useStakeTable(props, VIDEO_POKER);
  const { round, view, open, ready } = table;
  const roundId = round.round?.roundId;
  // the holds belong to one deal: a new round starts with none
  const [holds, setHolds] = useState<{ roundId: string | null | undefined; held: boolean[] }>({ roundId: undefined, held: NO_HOLDS });
  const held = holds.roundId === roundId ? holds.held : NO_HOLDS;
  const cards = view ? (view.final ?? view.hand) : [];
  const shownHeld = view?.held ?? held;
  const lit = litLine(table);
  const multiplier = view?.bet ?? 1;

  return (
    <StakeTableFrame
      table={table}
      panel={{
        actions: [{ testId: "vp-draw", tone: "go", wide: true, enabled: ready, action: { type: "draw", hold: held }, label: "Draw" }],
      }}
    >
      <div className="flex h-full flex-col gap-4">
        <table className="w-full text-xs sm:text-sm" data-testid="vp-paytable">
          <tbody>
            {PAYING.map(([h, p]) => (
              <tr
                key={h}
                data-testid={`vp-line-${h}`}
                data-lit={lit === h}
                className={lit === h ? "bg-amber-300 font-bold text-slate-950" : "text-foreground"}
              >
                <td className="px-2 py-0.5 uppercase">{lineName(h)}</td>
                <td className="px-2 py-0.5 text-right tabular-nums">{p * multiplier}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="flex justify-center gap-1.5 sm:gap-3" data-testid="vp-hand">
          {cards.map((c, i) => (
            <button
              key={i}
              type="button"
              data-testid={`vp-card-${i}`}
              data-held={shownHeld[i] ?? false}
              aria-pressed={shownHeld[i] ?? false}
              disabled={!open || round.pending}
              onClick={() => setHolds({ roundId, held: held.map((x, j) => (j === i ? !x : x)) })}
              className="flex flex-col items-center gap-1"
            >
              <PlayingCard
                key={`${roundId}-${i}-${c}`}
                card={c}
                delay={view?.final ? (view.held?.[i] ? 0 : 0.12 * i) : 0.1 * i}
                highlight={shownHeld[i]}
              />
              <motion.span
                animate={{ opacity: shownHeld[i] ? 1 : 0 }}
                className="rounded bg-amber-300 px-1.5 text-[10px] font-black text-slate-950"
              >
                HELD
              </motion.span>
            </button>
          ))}
        </div>
        {view && (
          <p className="text-center text-sm font-semibold text-warning" data-testid="vp-hand-name">
            {view.finalHand ? (view.paysPerCredit ? lineName(view.finalHand) : "No win") : lineName(view.dealtHand)}
          </p>
        )}
        <RoundFoot round={round} idle={view ? null : "Set your bet and press Deal."} />
      </div>
    </StakeTableFrame>
  );
}
