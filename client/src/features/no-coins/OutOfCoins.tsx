import { Gift, Puzzle } from "lucide-react";
import { GAMES } from "@casino/common/catalogue";
import { formatHoursMinutes } from "@casino/common/format";
import { MIN_BET } from "@casino/common/limits";
import { useLobby } from "../../store/lobby";
import { useRoom } from "../../store/room";
import { Button } from "../../ui/Button";
import { useSpinAvailability } from "../daily-spin/useSpinAvailability";

/** Games that pay coins for skill and take no stake. */
const NO_RISK = GAMES.filter((g) => g.kind === "skill");

/**
 * Below the smallest bet there is nothing to stake: instead of a dead end, the way back to coins. The
 * daily spin (ready now, or when, counted down), and the games that pay for skill with no stake.
 */
export function OutOfCoins({ className }: { className?: string }) {
  const balance = useRoom((s) => s.balance);
  const { ready, msLeft } = useSpinAvailability();
  const setTab = useLobby((s) => s.setTab);
  const openGame = useLobby((s) => s.openGame);
  if (balance === null || balance >= MIN_BET) return null;
  return (
    <section
      aria-labelledby="out-of-coins"
      data-testid="out-of-coins"
      className={`rounded-2xl border border-warning/60 bg-card p-4 shadow-sm ${className ?? ""}`}
    >
      <h2 id="out-of-coins" className="text-lg font-bold">
        Out of coins? Here is how to get more
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">The smallest bet is {MIN_BET} coin. These cost nothing:</p>
      <div className="mt-3 grid gap-2 sm:grid-cols-2">
        <div className="flex items-center gap-3 rounded-xl bg-muted/60 p-3" data-testid="out-of-coins-spin">
          <Gift className="h-6 w-6 shrink-0 text-primary-ink" aria-hidden />
          <div className="min-w-0 flex-1 text-sm">
            <p className="font-semibold">Daily Spin: 50-500 free coins</p>
            <p className="text-muted-foreground">{ready ? "Ready now" : `Next spin in ${formatHoursMinutes(msLeft)}`}</p>
          </div>
          {ready && (
            <Button size="sm" onClick={() => setTab("daily")}>
              Spin now
            </Button>
          )}
        </div>
        {NO_RISK.map((game) => (
          <div key={game.id} className="flex items-center gap-3 rounded-xl bg-muted/60 p-3" data-testid={`out-of-coins-${game.id}`}>
            <Puzzle className="h-6 w-6 shrink-0 text-primary-ink" aria-hidden />
            <div className="min-w-0 flex-1 text-sm">
              <p className="font-semibold">{game.title}: no stake</p>
              <p className="text-muted-foreground">{game.description}</p>
            </div>
            <Button size="sm" variant="secondary" onClick={() => openGame(game.id)} aria-label={`Play ${game.title}`}>
              Play
            </Button>
          </div>
        ))}
      </div>
    </section>
  );
}
