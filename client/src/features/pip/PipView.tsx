import { formatCoins } from "@casino/common/format";
import { gameDefinition } from "@casino/common/catalogue";
import { shownBalance, useRoom } from "../../store/room";
import { useLobby } from "../../store/lobby";

/**
 * The picture-in-picture window of Discord (layout mode PIP): a small tile over the call, so only the
 * balance and the current round. The full page stays mounted underneath (hidden), so nothing a table
 * holds is lost when the window grows back.
 */
export function PipView() {
  const balance = useRoom(shownBalance);
  const openRound = useRoom((s) => s.openRound);
  const activeGame = useLobby((s) => s.activeGame);
  const game = openRound?.game ?? activeGame;
  const title = game ? (gameDefinition(game)?.title ?? game) : null;
  return (
    <main
      data-testid="pip"
      aria-label="Picture-in-picture"
      className="bg-background text-foreground flex min-h-dvh flex-col items-center justify-center gap-1 p-2 text-center"
    >
      <p className="text-muted-foreground text-xs">Balance</p>
      <p data-testid="pip-balance" className="font-mono text-2xl font-bold tabular-nums">
        {balance === null ? "…" : formatCoins(balance)}
      </p>
      <p data-testid="pip-round" className="text-sm">
        {openRound
          ? `${title}: round in play, stake ${formatCoins(openRound.totalStake)}`
          : title
            ? `${title}: between rounds`
            : "In the lobby"}
      </p>
    </main>
  );
}
