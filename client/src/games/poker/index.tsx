import { RAISE_MULTIPLE, RAISE_PAYS, type PokerOutcome } from "@casino/common/games/poker/engine";
import type { Card } from "@casino/common/games/cards";
import type { FiveCardCategory } from "@casino/common/games/poker-hands";
import type { GameTableProps } from "../contract";
import { HeadsUp, RoundFoot } from "../shared/CardTable";
import { handName } from "../shared/Cards";
import { PayTable } from "../shared/GameHelp";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { formatCoins } from "../shared/format";

/** The engine's view (common/games/poker): the dealer's hand is shown once the round is over. */
interface PokerView {
  ante: number;
  player: Card[];
  playerHand: FiveCardCategory;
  dealerUp: Card;
  dealer?: Card[];
  dealerHand?: FiveCardCategory;
  dealerQualifies?: boolean;
  outcome?: PokerOutcome;
}

const REVEAL_MS = 900;
const OUTCOME: Record<PokerOutcome, string> = {
  fold: "You folded",
  "dealer-not-qualified": "Dealer does not qualify: ante pays 1:1, raise pushes",
  win: "You beat the dealer",
  push: "Tie: ante and raise push",
  lose: "Dealer wins",
};

/** The rules of the game, for its help. */
const RULES = (
  <ul className="list-disc space-y-1 pl-5">
    <li>Caribbean Stud: your bet is the ante. You and the dealer get five cards from one deck; one dealer card is face up.</li>
    <li>Fold (lose the ante) or raise {RAISE_MULTIPLE}× the ante.</li>
    <li>The dealer qualifies with ace-king high or better. If not, the ante pays 1:1 and the raise is returned.</li>
    <li>
      Against a qualifying dealer the better hand wins: your win pays the ante 1:1 and the raise by the table below; a tie returns both.
    </li>
  </ul>
);

const POKER: StakeGame<PokerView> = {
  reveal: REVEAL_MS,
  help: ({ view }) => ({
    rules: RULES,
    payTable: (
      <PayTable
        head={["Your hand", "Raise pays"]}
        rows={(Object.entries(RAISE_PAYS) as [FiveCardCategory, number][]).reverse().map(([hand, pays]) => ({
          label: handName(hand),
          pays: `${pays}:1`,
          highlight: !!view?.outcome && view.outcome === "win" && view.playerHand === hand,
        }))}
      />
    ),
  }),
  label: "Deal",
  amountLabel: "Ante",
};

export default function PokerTable(props: GameTableProps) {
  const table = useStakeTable(props, POKER);
  const { round, view, ready } = table;
  const raise = view ? RAISE_MULTIPLE * view.ante : 0;
  const dealerCards: (Card | null)[] = view ? (view.dealer ?? [view.dealerUp, null, null, null, null]) : [];

  return (
    <StakeTableFrame
      table={table}
      panel={{
        actions: [
          {
            testId: "poker-raise",
            tone: "go",
            enabled: ready && props.balance >= raise,
            action: { type: "raise" },
            label: `Raise ${formatCoins(raise)}`,
          },
          { testId: "poker-fold", tone: "stop", enabled: ready, action: { type: "fold" }, label: "Fold" },
        ],
      }}
    >
      <div className="flex h-full flex-col gap-5">
        <HeadsUp
          testPrefix="poker"
          dealKey={round.round?.roundId ?? "none"}
          view={view}
          dealer={dealerCards}
          deal={{ dealer: (i) => (view?.dealer ? 0.15 * i : 0.12 * (5 + i)), player: (i) => 0.12 * i, dealerTotal: 0.8 }}
          outcome={view?.outcome && { code: view.outcome, text: OUTCOME[view.outcome] }}
        />
        <RoundFoot round={round} idle={view ? null : "Set your ante and press Deal."} />
      </div>
    </StakeTableFrame>
  );
}
