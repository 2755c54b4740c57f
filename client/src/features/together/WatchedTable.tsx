import { Eye } from "lucide-react";
import { gameDefinition, type GameId } from "@casino/common/catalogue";
import { formatCoins, formatMultiplier } from "@casino/common/format";
import type { Card } from "@casino/common/games/cards";
import { TILES } from "@casino/common/games/mines/engine";
import type { WatchedRound } from "@casino/common/together";
import { Dialog } from "../../ui/Dialog";
import { cn } from "../../ui/cn";
import { Hand } from "../../games/shared/Cards";
import { GemIcon, MineIcon } from "../../games/shared/icons";

/**
 * The read-only live view of another member's table: what that player's own screen shows of the round,
 * step by step, as the server pushes it (never more: the server sends only the round's public view).
 * Blackjack and mines are drawn as tables; every other game as its stake, payout and multiplier.
 */
export function WatchDialog(props: { name: string; game: string | null; round: WatchedRound | null; waiting: boolean; onClose(): void }) {
  const game = props.round?.game ?? props.game;
  const title = game ? (gameDefinition(game as GameId)?.title ?? game) : null;
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      title={
        <span className="flex items-center gap-2">
          <Eye className="h-5 w-5 text-primary-ink" aria-hidden /> Watching {props.name}
        </span>
      }
      description={title ? `${title}, live. You see what ${props.name} sees.` : `${props.name} is in the lobby.`}
    >
      <div data-testid="watch-view" data-game={game ?? undefined}>
        {props.waiting ? (
          <p className="text-sm text-muted-foreground">Joining the table...</p>
        ) : props.round === null ? (
          <p className="text-sm text-muted-foreground" data-testid="watch-waiting">
            Waiting for {props.name}&apos;s next round...
          </p>
        ) : (
          <RoundView round={props.round} />
        )}
      </div>
    </Dialog>
  );
}

function RoundView({ round }: { round: WatchedRound }) {
  const multiplier = round.totalStake > 0 ? round.totalPayout / round.totalStake : 0;
  const status = !round.done ? "In play" : round.result === "win" ? "Won" : round.result === "push" ? "Push" : "Lost";
  return (
    <div className="space-y-4">
      {round.game === "blackjack" && <BlackjackView view={round.view as BlackjackView} />}
      {round.game === "mines" && <MinesView view={round.view as MinesView} />}
      <dl className="grid grid-cols-3 gap-2 text-center text-sm" data-testid="watch-summary">
        <div className="rounded-lg bg-muted p-2">
          <dt className="text-xs text-muted-foreground">Stake</dt>
          <dd className="font-semibold tabular-nums">{formatCoins(round.totalStake)}</dd>
        </div>
        <div className="rounded-lg bg-muted p-2">
          <dt className="text-xs text-muted-foreground">{round.done ? "Paid" : "Now"}</dt>
          <dd className="font-semibold tabular-nums" data-testid="watch-payout">
            {formatCoins(round.game === "mines" && !round.done ? ((round.view as MinesView).cashValue ?? 0) : round.totalPayout)}
          </dd>
        </div>
        <div className={cn("rounded-lg p-2", round.done && round.result === "win" ? "bg-primary/20" : "bg-muted")}>
          <dt className="text-xs text-muted-foreground">{status}</dt>
          <dd className="font-semibold tabular-nums" data-testid="watch-status" data-status={status}>
            {round.done
              ? formatMultiplier(multiplier)
              : round.game === "mines"
                ? formatMultiplier((round.view as MinesView).multiplier ?? 0)
                : "..."}
          </dd>
        </div>
      </dl>
    </div>
  );
}

interface BlackjackView {
  hands: { cards: Card[]; total: number; soft: boolean; result?: string }[];
  dealer: (Card | null)[];
  dealerTotal: number;
  active: number;
}

function BlackjackView({ view }: { view: BlackjackView }) {
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

interface MinesView {
  mineCount: number;
  revealed: number[];
  multiplier: number;
  cashValue: number;
  mines?: number[];
  hit?: number | null;
}

function MinesView({ view }: { view: MinesView }) {
  const revealed = new Set(view.revealed);
  const mines = new Set(view.mines ?? []);
  return (
    <div className="mx-auto grid max-w-xs grid-cols-5 gap-1.5" data-testid="watch-mines" aria-label={`${view.revealed.length} gems found`}>
      {Array.from({ length: TILES }, (_, tile) => {
        const gem = revealed.has(tile);
        const mine = mines.has(tile);
        return (
          <div
            key={tile}
            data-testid="watch-tile"
            data-state={gem ? "gem" : mine ? "mine" : "hidden"}
            className={cn(
              "flex aspect-square items-center justify-center rounded-lg border border-border",
              gem ? "bg-emerald-500/25" : mine ? (view.hit === tile ? "bg-rose-400" : "bg-rose-100") : "bg-muted",
            )}
          >
            {gem ? <GemIcon size={22} /> : mine ? <MineIcon size={22} /> : null}
          </div>
        );
      })}
    </div>
  );
}
