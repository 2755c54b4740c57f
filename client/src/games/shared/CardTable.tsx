import type { Card } from "@casino/common/games/cards";
import { Hand, handName } from "./Cards";
import { RoundResult } from "./RoundResult";
import type { RoundControls } from "./use-round";

/** What a stud game's view tells of the two hands: the dealer's are named once the round is over. */
interface StudHands {
  player: Card[];
  playerHand: string;
  dealerHand?: string;
  dealerQualifies?: boolean;
}

/**
 * The dealer's hand above the player's, each named once known (a dealer who does not qualify is said
 * so), and the round's outcome in words (`outcome`, with its code in `data-outcome`): the felt of the
 * stud games. `dealer` is the dealer's cards as shown (null for one face down); `deal` times the cards
 * in seconds. Test ids: `${testPrefix}-dealer`, `-player`, `-outcome`.
 */
export function HeadsUp(props: {
  testPrefix: string;
  dealKey: string | number;
  view: StudHands | null;
  dealer: (Card | null)[];
  deal: { dealer(i: number): number; player(i: number): number; dealerTotal: number };
  outcome?: { code: string; text: string } | null;
}) {
  const { testPrefix, dealKey, view, deal, outcome } = props;
  return (
    <>
      <Hand
        label="Dealer"
        testId={`${testPrefix}-dealer`}
        cards={props.dealer}
        dealKey={dealKey}
        delayOf={deal.dealer}
        total={view?.dealerHand ? `${handName(view.dealerHand)}${view.dealerQualifies ? "" : " · does not qualify"}` : undefined}
        totalDelay={deal.dealerTotal}
      />
      <Hand
        label="You"
        testId={`${testPrefix}-player`}
        cards={view?.player ?? []}
        dealKey={dealKey}
        delayOf={deal.player}
        total={view ? handName(view.playerHand) : undefined}
      />
      {outcome && (
        <p className="text-center text-sm font-semibold text-warning" data-testid={`${testPrefix}-outcome`} data-outcome={outcome.code}>
          {outcome.text}
        </p>
      )}
    </>
  );
}

/** The foot of a card table's felt: what to do before the first deal (`idle`, shown while `idle` is set), then the round's result. */
export function RoundFoot(props: { round: RoundControls<unknown>; idle?: string | null }) {
  return (
    <>
      {props.idle && <p className="m-auto text-sm text-muted-foreground">{props.idle}</p>}
      <div className="mt-auto">
        <RoundResult round={props.round.round} />
      </div>
    </>
  );
}
