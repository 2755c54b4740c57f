import { Suspense, createElement, lazy, type ComponentType } from "react";
import { Eye } from "lucide-react";
import { gameDefinition, type GameId } from "@casino/common/catalogue";
import { formatCoins, formatMultiplier, formatNet, payoutText } from "@casino/common/format";
import type { WatchedRound } from "@casino/common/together";
import { Dialog } from "../../ui/Dialog";
import { cn } from "../../ui/cn";
import { CLIENT_GAMES } from "../../games/registry";
import { ReactionOverlay, ReactionPicker } from "./Reactions";
import type { WatchViewProps } from "../../games/contract";

/**
 * The read-only live view of another member's table: what that player's own screen shows of the round,
 * step by step, as the server pushes it (never more: the server sends only the round's public view).
 * A game with a `watch.tsx` in its folder (blackjack, mines) draws its round there, loaded when first
 * watched; every game shows its stake, what it paid and its net figure, and the bet's own multiplier as
 * "My bets" tells it (the server's `round.multiplier`, never paid ÷ stake; "—" where the round has
 * none), and an open round that can be cashed out (its view carries `cashValue` and `multiplier`:
 * mines, hi-lo) what a cash-out would pay now.
 */
export function WatchDialog(props: {
  discordId: string;
  name: string;
  game: string | null;
  round: WatchedRound | null;
  waiting: boolean;
  onClose(): void;
}) {
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
      <div data-testid="watch-view" data-game={game ?? undefined} className="relative">
        {props.waiting ? (
          <p className="text-sm text-muted-foreground">Joining the table...</p>
        ) : props.round === null ? (
          <p className="text-sm text-muted-foreground" data-testid="watch-waiting">
            Waiting for {props.name}&apos;s next round...
          </p>
        ) : (
          <RoundView round={props.round} />
        )}
        <ReactionOverlay target={{ kind: "table", discordId: props.discordId }} />
      </div>
      <ReactionPicker target={{ kind: "table", discordId: props.discordId }} label={`${props.name}'s table`} className="mt-3" />
    </Dialog>
  );
}

/** Each game's watch view, loaded the first time a round of that game is watched. */
const WATCH_VIEWS = new Map<string, ComponentType<WatchViewProps>>(
  Object.entries(CLIENT_GAMES).flatMap(([id, game]) => (game.watch ? [[id, lazy(game.watch)]] : [])),
);

/** What an open round would pay if cashed out now, when its view says so. */
function cashOutNow(round: WatchedRound): { cashValue: string; multiplier: number } | null {
  const view = round.view as { cashValue?: unknown; cashValueUp?: unknown; cashValueExact?: unknown; multiplier?: unknown } | null;
  if (round.done || typeof view?.cashValue !== "number" || typeof view.multiplier !== "number") return null;
  // the exact value and the whole coins a cash-out now pays (rule 2), never the value rounded down alone
  const cashValue =
    typeof view.cashValueExact === "number" && typeof view.cashValueUp === "number"
      ? payoutText(view.cashValueExact, { low: view.cashValue, high: view.cashValueUp })
      : formatCoins(view.cashValue);
  return { cashValue, multiplier: view.multiplier };
}

function RoundView({ round }: { round: WatchedRound }) {
  const now = cashOutNow(round);
  const View = WATCH_VIEWS.get(round.game);
  const status = !round.done ? "In play" : round.result === "win" ? "Won" : round.result === "push" ? "Push" : "Lost";
  return (
    <div className="space-y-4">
      {View && (
        <Suspense fallback={null}>
          {/* a module-level lazy component looked up by game (not created here) */}
          {createElement(View, { view: round.view })}
        </Suspense>
      )}
      <dl className="grid grid-cols-2 gap-2 text-center text-sm sm:grid-cols-4" data-testid="watch-summary">
        <div className="rounded-lg bg-muted p-2">
          <dt className="text-xs text-muted-foreground">Stake</dt>
          <dd className="font-semibold tabular-nums">{formatCoins(round.totalStake)}</dd>
        </div>
        <div className="rounded-lg bg-muted p-2">
          <dt className="text-xs text-muted-foreground">{round.done ? "Paid" : "Now"}</dt>
          <dd className="font-semibold tabular-nums" data-testid="watch-payout">
            {now ? now.cashValue : formatCoins(round.totalPayout)}
          </dd>
        </div>
        <div className="rounded-lg bg-muted p-2">
          <dt className="text-xs text-muted-foreground">Net</dt>
          <dd className="font-semibold tabular-nums" data-testid="watch-net">
            {round.done ? formatNet(round.totalPayout - round.totalStake) : "..."}
          </dd>
        </div>
        <div className={cn("rounded-lg p-2", round.done && round.result === "win" ? "bg-primary/20" : "bg-muted")}>
          <dt className="text-xs text-muted-foreground">{status}</dt>
          <dd className="font-semibold tabular-nums" data-testid="watch-status" data-status={status}>
            {round.done
              ? round.multiplier === null
                ? "—"
                : formatMultiplier(round.multiplier)
              : now
                ? formatMultiplier(now.multiplier)
                : "..."}
          </dd>
        </div>
      </dl>
    </div>
  );
}
