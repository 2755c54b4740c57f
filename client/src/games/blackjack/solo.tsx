import { motion } from "motion/react";
import {
  BLACKJACK_DECKS,
  MAX_HANDS,
  insuranceCost,
  type BlackjackActionType,
  type BlackjackHand,
  type BlackjackPhase,
  type HandResult,
} from "@casino/common/games/blackjack/engine";
import type { Card } from "@casino/common/games/cards";
import type { BetAnswer } from "@casino/common/protocol";
import type { GameTableProps } from "../contract";
import { StakeTableFrame, useStakeTable, type StakeGame } from "../shared/StakeTable";
import { Hand } from "../shared/Cards";
import { PayTable, type HelpContent } from "../shared/GameHelp";
import type { RoundAction } from "../shared/ActionButton";
import { RoundFoot } from "../shared/CardTable";
import { formatCoins } from "../shared/format";

/** The engine's view of a round (common/games/blackjack `view`): the hole card is null while it is open. */
interface ShownHand extends BlackjackHand {
  total: number;
  soft: boolean;
}
interface BlackjackView {
  bet: number;
  hands: ShownHand[];
  dealer: (Card | null)[];
  dealerTotal: number;
  phase: BlackjackPhase;
  active: number;
  insurance: { stake: number; payout: number } | null;
  dealerBlackjack: boolean;
  actions: BlackjackActionType[];
  /** every card out of the shoe, once the round is over */
  dealt?: Card[];
}

const SHOE = BLACKJACK_DECKS * 52;
const DEAL_S = 0.25;
const DEALER_DRAW_S = 0.3;
const TURN_S = 0.2;
/**
 * When each dealer card appears as it is dealt: the up card and the face-down hole card in the opening
 * deal; at the end the hole card turns, then the dealer's draws come one by one.
 */
const dealerDelay = (i: number, done: boolean) =>
  i === 0 ? DEAL_S : i === 1 ? (done ? TURN_S : 3 * DEAL_S) : TURN_S + (i - 1) * DEALER_DRAW_S;
const revealMs = (a: BetAnswer) => (dealerDelay(Math.max(1, (a.view as BlackjackView).dealer.length - 1), true) + 0.3) * 1000;

export const RESULT_TEXT: Record<HandResult, string> = { blackjack: "Blackjack!", win: "Win", push: "Push", lose: "Lose", bust: "Bust" };
/** "7 / 17" for a soft hand still in play; the best total once it is done. */
export const handTotal = (h: { total: number; soft: boolean; finished: boolean; result?: HandResult }) =>
  h.soft && h.total < 21 && !h.finished && !h.result ? `${h.total - 10} / ${h.total}` : String(h.total);

/** The rules and pay table, the same for the solo game and the shared table. */
export const BLACKJACK_HELP: HelpContent = {
  rules: (
    <ul className="list-disc space-y-1 pl-5">
      <li>
        A fresh {BLACKJACK_DECKS}-deck shoe every round. Get closer to 21 than the dealer without going over; aces count 1 or 11, faces 10.
      </li>
      <li>The dealer stands on all 17s and checks for blackjack when showing an ace or a ten.</li>
      <li>Double on any first two cards (also after a split): one more card, twice the bet.</li>
      <li>Split two cards of the same rank, up to {MAX_HANDS} hands; split aces take one card each. A J and a Q are not a pair.</li>
      <li>Insurance (half the bet) is offered when the dealer shows an ace; it pays 2:1 if the dealer has blackjack. No surrender.</li>
    </ul>
  ),
  payTable: (
    <PayTable
      head={["Hand", "Pays"]}
      rows={[
        { label: "Blackjack (ace and a ten-value card)", pays: "3:2" },
        { label: "Win", pays: "1:1" },
        { label: "Push", pays: "bet back" },
        { label: "Insurance", pays: "2:1" },
      ]}
    />
  ),
};

const SOLO_BLACKJACK: StakeGame<BlackjackView> = { reveal: revealMs, help: BLACKJACK_HELP, label: "Deal" };

export function SoloBlackjack(props: GameTableProps) {
  const { balance } = props;
  const table = useStakeTable(props, SOLO_BLACKJACK);
  const { round, view, open } = table;
  const can = (a: BlackjackActionType) => table.ready && view!.actions.includes(a);
  const bet = view?.bet ?? 0;
  const shoeOut = view ? (view.dealt?.length ?? view.hands.reduce((n, h) => n + h.cards.length, 0) + 2) : 0;
  const dealKey = round.round?.roundId ?? "none";

  const actions: RoundAction[] =
    view?.phase === "insurance"
      ? [
          {
            testId: "bj-insurance-take",
            label: `Insure (${formatCoins(insuranceCost(bet))})`,
            action: { type: "insurance", take: true },
            enabled: can("insurance") && balance >= insuranceCost(bet),
            tone: "info",
          },
          { testId: "bj-insurance-decline", label: "No insurance", action: { type: "insurance", take: false }, enabled: can("insurance") },
        ]
      : [
          { testId: "bj-hit", label: "Hit", action: { type: "hit" }, enabled: can("hit"), tone: "go" },
          { testId: "bj-stand", label: "Stand", action: { type: "stand" }, enabled: can("stand"), tone: "stop" },
          {
            testId: "bj-double",
            label: `Double (${formatCoins(bet)})`,
            action: { type: "double" },
            enabled: can("double") && balance >= bet,
          },
          { testId: "bj-split", label: `Split (${formatCoins(bet)})`, action: { type: "split" }, enabled: can("split") && balance >= bet },
        ];

  return (
    <StakeTableFrame table={table} panel={{ actions }}>
      <div className="flex h-full flex-col gap-5">
        <div className="flex items-center justify-between text-xs text-muted-foreground">
          <span>Blackjack pays 3:2 · Dealer stands on all 17s · Insurance pays 2:1</span>
          <span className="flex items-center gap-2" data-testid="bj-shoe" title="Cards dealt from this round's shoe">
            Shoe
            <span className="relative h-2 w-20 overflow-hidden rounded-full bg-card/80">
              <span className="absolute inset-y-0 left-0 bg-amber-300" style={{ width: `${(shoeOut / SHOE) * 100}%` }} />
            </span>
            {shoeOut}/{SHOE}
          </span>
        </div>
        <Hand
          label="Dealer"
          testId="bj-dealer"
          cards={view?.dealer ?? []}
          dealKey={dealKey}
          delayOf={(i) => dealerDelay(i, !!round.round?.done)}
          // no total while the hole card is face down; once it turns, after the dealer's last card lands
          total={view && round.round?.done ? `${view.dealerTotal}${view.dealerTotal > 21 ? " · bust" : ""}` : undefined}
        />
        <div className="flex flex-wrap justify-center gap-4" data-testid="bj-hands">
          {(view?.hands ?? []).map((h, i) => {
            const active = !!open && view!.phase === "playing" && view!.active === i;
            return (
              <motion.div
                key={i}
                layout
                data-testid={`bj-hand-${i}`}
                data-total={h.total}
                data-result={h.result ?? ""}
                className={`rounded-xl p-2 ${active ? "bg-amber-300/15 ring-2 ring-amber-300" : ""}`}
              >
                <Hand
                  label={view!.hands.length > 1 ? `Hand ${i + 1}` : "You"}
                  cards={h.cards}
                  dealKey={`${dealKey}-${i}`}
                  delayOf={(c) => (c < 2 && !h.split ? 2 * c * DEAL_S : 0.05)}
                  total={handTotal(h)}
                />
                <p className="mt-1 text-center text-xs text-muted-foreground">
                  {formatCoins(h.stake)} {h.doubled ? "· doubled" : ""}
                  {/* a hand's result is told with the round's, when the dealer's cards are all shown */}
                  {h.result && round.round?.revealed && (
                    <strong
                      data-testid="bj-hand-result"
                      className={`ml-2 ${h.result === "win" || h.result === "blackjack" ? "text-positive" : h.result === "push" ? "text-foreground" : "text-destructive"}`}
                    >
                      {RESULT_TEXT[h.result]}
                    </strong>
                  )}
                </p>
              </motion.div>
            );
          })}
        </div>
        {view?.insurance && view.insurance.stake > 0 && (
          <p className="text-center text-xs text-primary-ink">
            Insurance {formatCoins(view.insurance.stake)} {round.round?.done ? `· paid ${formatCoins(view.insurance.payout)}` : ""}
          </p>
        )}
        <RoundFoot round={round} idle={view ? null : "Set your bet and press Deal."} />
      </div>
    </StakeTableFrame>
  );
}
