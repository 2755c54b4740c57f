import { ANTE_BONUS, PAIR_PLUS_PAYS, type AnteOutcome, type ThreeCardPokerParams } from "@casino/common/games/three-card-poker/engine";
import { THREE_CARD_CATEGORIES, type ThreeCardCategory } from "@casino/common/games/poker-hands";
import type { Card } from "@casino/common/games/cards";
import type { GameTableProps } from "../contract";
import { HeadsUp } from "../shared/CardTable";
import { handName } from "../shared/Cards";
import { PayTable } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { ChipSpot, ChipTableFrame, useChipTable, type ChipGame } from "../shared/ChipTable";
import { formatCoins } from "../shared/format";

/** The engine's view (common/games/three-card-poker): the dealer's cards appear once the round is over. */
interface ThreeCardView {
  ante: number;
  pairPlus: number;
  player: Card[];
  playerHand: ThreeCardCategory;
  dealer?: Card[];
  dealerHand?: ThreeCardCategory;
  dealerQualifies?: boolean;
  anteOutcome?: AnteOutcome | null;
}

type Spot = "ante" | "pairPlus";
const REVEAL_MS = 900;
const OUTCOME: Record<AnteOutcome, string> = {
  fold: "You folded the ante",
  "dealer-not-qualified": "Dealer does not qualify: ante pays 1:1, play pushes",
  win: "You beat the dealer",
  push: "Tie: ante and play push",
  lose: "Dealer wins",
};
const BEST_FIRST = [...THREE_CARD_CATEGORIES].reverse();

/** The rules of the game, for its help. */
const RULES = (
  <ul className="list-disc space-y-1 pl-5">
    <li>Place chips on the Ante, on Pair Plus, or both. You and the dealer get three cards from one deck.</li>
    <li>With an ante, fold (lose the ante; Pair Plus still pays) or play (a second bet equal to the ante).</li>
    <li>
      The dealer qualifies with queen high or better. If not, the ante pays 1:1 and the play bet is returned; otherwise the better hand wins
      both bets 1:1, a tie returns them.
    </li>
    <li>When you play, the ante bonus is paid on the ante whatever the dealer holds. Pair Plus pays on your three cards alone.</li>
  </ul>
);

const THREE_CARD_POKER: ChipGame<ThreeCardView, Spot, ThreeCardPokerParams> = {
  reveal: REVEAL_MS,
  help: ({ view, round }) => ({
    rules: RULES,
    payTable: (
      <div className="grid gap-3 sm:grid-cols-2">
        <PayTable
          head={["Ante bonus", "Pays"]}
          rows={BEST_FIRST.filter((c) => ANTE_BONUS[c] !== undefined).map((c) => ({ label: handName(c), pays: `${ANTE_BONUS[c]}:1` }))}
        />
        <PayTable
          head={["Pair Plus", "Pays"]}
          rows={BEST_FIRST.filter((c) => PAIR_PLUS_PAYS[c] !== undefined).map((c) => ({
            label: handName(c),
            pays: `${PAIR_PLUS_PAYS[c]}:1`,
            highlight: !!view && !!round.round?.done && view.pairPlus > 0 && view.playerHand === c,
          }))}
        />
      </div>
    ),
  }),
  label: "Deal",
  hint: "Place a chip on the Ante or Pair Plus",
  testPrefix: "tcp",
  paramsOf: (spots, amount) => {
    const on = (s: Spot) => (spots.find((e) => e.spot === s)?.chips ?? 0) * amount;
    return { ante: on("ante"), pairPlus: on("pairPlus") };
  },
};

export default function ThreeCardPokerTable(props: GameTableProps) {
  const table = useChipTable(props, THREE_CARD_POKER);
  const { round, chips, view, ready } = table;
  const open = round.open;
  const dealer: (Card | null)[] = view ? (view.dealer ?? [null, null, null]) : [];

  const spot = (s: Spot, label: string, sub: string) => (
    <ChipSpot
      testId={`tcp-${s}`}
      disabled={!!open || round.pending}
      onClick={() => chips.add(s, s)}
      className="felt-spot relative flex h-20 flex-col items-center justify-center rounded-full border-2 px-4 font-bold uppercase tracking-wide disabled:cursor-default"
      stack={table.stack(s)}
      stackAt="-right-1 -top-1"
    >
      {label}
      <span className="text-[10px] font-normal normal-case text-muted-foreground">{sub}</span>
    </ChipSpot>
  );

  return (
    <ChipTableFrame
      table={table}
      panel={{
        actions: [
          {
            testId: "tcp-play",
            tone: "go",
            enabled: ready && !!view && props.balance >= view.ante,
            action: { type: "play" },
            label: `Play ${view ? formatCoins(view.ante) : ""}`,
          },
          { testId: "tcp-fold", tone: "stop", enabled: ready, action: { type: "fold" }, label: "Fold" },
        ],
      }}
    >
      <div className="flex h-full flex-col gap-5">
        <HeadsUp
          testPrefix="tcp"
          dealKey={round.round?.roundId ?? round.settledCount}
          view={view}
          dealer={dealer}
          deal={{ dealer: (i) => (view?.dealer ? 0.2 * i : 0.15 * (3 + i)), player: (i) => 0.15 * i, dealerTotal: 0.6 }}
          outcome={view?.anteOutcome && { code: view.anteOutcome, text: OUTCOME[view.anteOutcome] }}
        />
        <div className="mt-auto flex justify-center gap-4">
          {spot("pairPlus", "Pair Plus", "pays on your hand")}
          {spot("ante", "Ante", "vs the dealer")}
        </div>
        <RoundResult round={round.round} bets={view ? Number(view.ante > 0) + Number(view.pairPlus > 0) : 1} />
      </div>
    </ChipTableFrame>
  );
}
