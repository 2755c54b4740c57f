import type { Card } from "@casino/common/games/cards";
import { Hand } from "../shared/Cards";
import type { WatchViewProps } from "../contract";

/** A watched blackjack round (the together dialog): the dealer's cards and the player's hands, as the player sees them. */
interface BlackjackView {
  hands: { cards: Card[]; total: number; soft: boolean; result?: string }[];
  dealer: (Card | null)[];
  dealerTotal: number;
  active: number;
}

export default function WatchBlackjack(props: WatchViewProps) {
  const view = props.view as BlackjackView;
  return (
    <div className="space-y-3 rounded-xl bg-emerald-900/80 p-3" data-testid="watch-blackjack">
      <Hand label="Dealer" cards={view.dealer} total={String(view.dealerTotal)} size="sm" testId="watch-dealer" />
      <div className="flex flex-wrap justify-center gap-4">
        {view.hands.map((hand, i) => (
          <Hand
            key={i}
            label={view.hands.length > 1 ? `Hand ${i + 1}` : "Player"}
            cards={hand.cards}
            total={`${hand.soft ? "soft " : ""}${hand.total}`}
            size="sm"
            testId="watch-hand"
          />
        ))}
      </div>
    </div>
  );
}
