import { ArrowLeft } from "lucide-react";
import { go, isAboveLobby, tabPath } from "../../app/address";
import { BalanceDisplay } from "../../features/lobby/BalanceDisplay";
import { useRoom } from "../../store/room";
import { useToast } from "../../store/toast";
import { useSharedRoomHost } from "../../features/game-host/shared-room-host";
import { Button } from "../../ui/Button";
import { HoldemTable } from "./HoldemTable";

/** Back to the lobby: the browser's Back when the table was opened over it, else the lobby in its place. */
function backToLobby(): void {
  if (isAboveLobby()) history.back();
  else go(tabPath("games"), { replace: true });
}

/**
 * The Hold'em table's page (`/holdem`, a lazy chunk): the bar with "Back to Lobby" and the balance, as
 * over a game, and the table (the activity instance's, else a public one with a free seat) joined for
 * as long as the page is open.
 */
export default function HoldemPage() {
  // The activity instance's table inside Discord, else a public one (as the blackjack table's).
  const host = useSharedRoomHost((h) => h);
  const balance = useRoom((s) => s.balance) ?? 0;
  const setToastSlot = useToast((s) => s.setSlot);
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-20 border-b border-border bg-background/95">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-2 px-3 sm:px-4">
          <Button
            variant="ghost"
            size="sm"
            onClick={backToLobby}
            className="h-10 min-w-10 shrink-0 px-2 sm:px-3"
            data-testid="back-to-lobby"
          >
            <ArrowLeft className="h-5 w-5" aria-hidden /> <span className="sr-only sm:not-sr-only">Back to Lobby</span>
          </Button>
          <div className="relative flex min-w-0 flex-1 items-center self-stretch">
            <h1 className="min-w-0 text-base font-bold leading-tight text-balance sm:text-lg" data-testid="game-title">
              Hold&apos;em table
            </h1>
            <div ref={setToastSlot} data-testid="toast-slot" className="pointer-events-none absolute inset-x-0 inset-y-1.5 grid" />
          </div>
          <div className="ml-auto flex items-center">
            <BalanceDisplay />
          </div>
        </div>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-2 py-3 sm:px-4 sm:py-4">
        {host && <HoldemTable host={host} balance={balance} />}
      </main>
    </div>
  );
}
