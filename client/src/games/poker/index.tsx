import { RAISE_MULTIPLE, RAISE_PAYS, type PokerOutcome } from "@casino/common/games/poker/engine";
import type { Card } from "@casino/common/games/cards";
import type { FiveCardCategory } from "@casino/common/games/poker-hands";
import type { GameTableProps } from "../contract";
import { ActionButton } from "../shared/ActionButton";
import { StakeBetPanel } from "../shared/StakeBetPanel";
import { blockedBy } from "../shared/blocked";
import { Hand, handName } from "../shared/Cards";
import { GameFrame } from "../shared/GameFrame";
import { PayTable } from "../shared/GameHelp";
import { RoundResult } from "../shared/RoundResult";
import { formatCoins } from "../shared/format";
import { useRound } from "../shared/use-round";
import { useStake } from "../shared/use-stake";

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

export default function PokerTable(props: GameTableProps) {
  const { game, connection, balance } = props;
  const round = useRound<PokerView>(props, REVEAL_MS);
  const stake = useStake(game.id, balance);
  const view = round.round?.view ?? null;
  const open = round.open;
  const raise = view ? RAISE_MULTIPLE * view.ante : 0;
  const ready = !!open && !round.pending && connection.connected;
  const dealKey = round.round?.roundId ?? "none";
  const dealerCards: (Card | null)[] = view ? (view.dealer ?? [view.dealerUp, null, null, null, null]) : [];

  return (
    <GameFrame
      table={props}
      help={{
        rules: (
          <ul className="list-disc space-y-1 pl-5">
            <li>Caribbean Stud: your bet is the ante. You and the dealer get five cards from one deck; one dealer card is face up.</li>
            <li>Fold (lose the ante) or raise {RAISE_MULTIPLE}× the ante.</li>
            <li>The dealer qualifies with ace-king high or better. If not, the ante pays 1:1 and the raise is returned.</li>
            <li>
              Against a qualifying dealer the better hand wins: your win pays the ante 1:1 and the raise by the table below; a tie returns
              both.
            </li>
          </ul>
        ),
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
      }}
      panel={(showHelp) => (
        <StakeBetPanel
          table={props}
          round={round}
          stake={stake}
          params={{}}
          label="Deal"
          amountLabel="Ante"
          onShowHelp={showHelp}
          locked={!!open}
          blocked={blockedBy(round.otherOpen)}
          roundActions={
            <div className="grid grid-cols-2 gap-2">
              <ActionButton
                testId="poker-raise"
                tone="go"
                enabled={ready && balance >= raise}
                onClick={() => void round.act({ type: "raise" })}
              >
                Raise {formatCoins(raise)}
              </ActionButton>
              <ActionButton testId="poker-fold" tone="stop" enabled={ready} onClick={() => void round.act({ type: "fold" })}>
                Fold
              </ActionButton>
            </div>
          }
        />
      )}
    >
      <div className="flex h-full flex-col gap-5">
        <Hand
          label="Dealer"
          testId="poker-dealer"
          cards={dealerCards}
          dealKey={dealKey}
          delayOf={(i) => (view?.dealer ? 0.15 * i : 0.12 * (5 + i))}
          total={view?.dealerHand ? `${handName(view.dealerHand)}${view.dealerQualifies ? "" : " · does not qualify"}` : undefined}
          totalDelay={0.8}
        />
        <Hand
          label="You"
          testId="poker-player"
          cards={view?.player ?? []}
          dealKey={dealKey}
          delayOf={(i) => 0.12 * i}
          total={view ? handName(view.playerHand) : undefined}
        />
        {view?.outcome && (
          <p className="text-center text-sm font-semibold text-warning" data-testid="poker-outcome" data-outcome={view.outcome}>
            {OUTCOME[view.outcome]}
          </p>
        )}
        {!view && <p className="m-auto text-sm text-muted-foreground">Set your ante and press Deal.</p>}
        <div className="mt-auto">
          <RoundResult round={round.round} />
        </div>
      </div>
    </GameFrame>
  );
}
