import { lazy, Suspense, useMemo, useState, type LazyExoticComponent } from "react";
import { ArrowLeft, Construction, ShieldCheck } from "lucide-react";
import { gameDefinition, type GameDefinition, type GameId } from "@casino/common/catalogue";
import { GAME_TABLES } from "../../games/registry";
import type { GameTable } from "../../games/contract";
import { OutOfCoins } from "../no-coins/OutOfCoins";
import { useLobby } from "../../store/lobby";
import { useRoom } from "../../store/room";
import { useToast } from "../../store/toast";
import { useSession } from "../../store/session";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { ErrorBoundary } from "../../ui/ErrorBoundary";
import { BalanceDisplay } from "../lobby/BalanceDisplay";
import { GameIcon } from "../lobby/GameIcon";
import { Centered } from "../../ui/Centered";
import { useGameConnection } from "./game-connection";
import { useSharedCrashRoom } from "./shared-crash";
import { useSharedTableRoom } from "./shared-table";
import { announceRoundEnd } from "./round-end";
import { TogetherPanel } from "../together";

const SeedsPanel = lazy(() => import("../fairness/SeedsPanel").then((m) => ({ default: m.SeedsPanel })));

const tables = new Map<GameId, LazyExoticComponent<GameTable>>();

/** One lazy component per game, made once, so React keeps the loaded chunk between visits. */
function tableOf(id: GameId): LazyExoticComponent<GameTable> | null {
  const load = GAME_TABLES[id];
  if (!load) return null;
  if (!tables.has(id)) tables.set(id, lazy(load));
  return tables.get(id)!;
}

/**
 * A game in place of the lobby: its table from the registry (a lazy chunk, "Loading game..." meanwhile)
 * under a bar with the one "Back to Lobby" button, or the under-development card when it has no table.
 */
export default function GameHost({ gameId }: { gameId: GameId }) {
  const game = gameDefinition(gameId)!;
  const exit = useLobby((s) => s.exitGame);
  const Table = tableOf(gameId);
  const [seedsOpen, setSeedsOpen] = useState(false);
  const setToastSlot = useToast((s) => s.setSlot);
  if (!Table) return <UnderDevelopment game={game} onExit={exit} />;
  return (
    <>
      <header className="sticky top-0 z-20 border-b border-border bg-background/95">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-2 px-3 sm:px-4">
          {/* on a phone the arrow alone (its name stays for screen readers), so the title has room */}
          <Button variant="ghost" size="sm" onClick={exit} className="h-10 min-w-10 shrink-0 px-2 sm:px-3" data-testid="back-to-lobby">
            <ArrowLeft className="h-5 w-5" aria-hidden /> <span className="sr-only sm:not-sr-only">Back to Lobby</span>
          </Button>
          {/* the toast's place while a game is open: over the title only, never over the table or a control */}
          <div className="relative flex min-w-0 flex-1 items-center self-stretch">
            <h1 className="min-w-0 text-base font-bold leading-tight text-balance sm:text-lg" data-testid="game-title">
              {game.title}
            </h1>
            <div ref={setToastSlot} data-testid="toast-slot" className="pointer-events-none absolute inset-x-0 inset-y-1.5 grid" />
          </div>
          <div className="ml-auto flex items-center gap-1 sm:gap-2">
            <Button
              variant="ghost"
              size="sm"
              className="h-10 min-w-10 px-2 sm:px-3"
              onClick={() => setSeedsOpen(true)}
              data-testid="seeds-button"
              aria-label="Fairness: your seeds"
            >
              <ShieldCheck className="h-4 w-4" aria-hidden /> <span className="hidden sm:inline">Fairness</span>
            </Button>
            <BalanceDisplay />
          </div>
        </div>
      </header>
      <main className="mx-auto w-full max-w-6xl flex-1 px-2 py-3 sm:px-4 sm:py-4">
        {game.kind === "chance" && <OutOfCoins className="mb-3" />}
        <ErrorBoundary
          fallback={
            <Card role="alert" className="mx-auto max-w-md text-center">
              <p className="font-semibold">This game could not be loaded.</p>
              <p className="mt-1 text-sm text-muted-foreground">Check your connection and open it again.</p>
            </Card>
          }
        >
          <Suspense fallback={<Centered>Loading game...</Centered>}>
            <TableWithConnection game={game} Table={Table} onExit={exit} />
          </Suspense>
        </ErrorBoundary>
        <div className="mt-4">
          <TogetherPanel />
        </div>
      </main>
      {seedsOpen && (
        <Suspense fallback={null}>
          <SeedsPanel open={seedsOpen} onOpenChange={setSeedsOpen} />
        </Suspense>
      )}
    </>
  );
}

function TableWithConnection({ game, Table, onExit }: { game: GameDefinition; Table: LazyExoticComponent<GameTable>; onExit(): void }) {
  const connection = useGameConnection(game.id);
  const balance = useRoom((s) => s.balance) ?? 0;
  const token = useSession((s) => s.token);
  const playerId = useSession((s) => s.player?.id);
  // The table's "My bets" reads the server's history (with its Verify links) with the player's session.
  const session = useMemo(() => (token && playerId ? { token, playerId } : null), [token, playerId]);
  const sharedCrash = useSharedCrashRoom();
  const sharedTable = useSharedTableRoom();
  const startShared = useLobby((s) => s.startShared);
  const sharedAsks = useLobby((s) => s.sharedAsks);
  return (
    <Table
      game={game}
      connection={connection}
      balance={balance}
      onRoundEnd={announceRoundEnd}
      onExit={onExit}
      session={session}
      sharedCrash={game.id === "crash" ? sharedCrash : null}
      sharedTable={game.id === "blackjack" ? sharedTable : null}
      startShared={startShared}
      sharedAsks={sharedAsks}
    />
  );
}

/** The spec's card for a game without a table yet. */
function UnderDevelopment({ game, onExit }: { game: GameDefinition; onExit(): void }) {
  return (
    <main className="grid flex-1 place-items-center p-4">
      <Card className="w-full max-w-md text-center" data-testid="under-development">
        <div className="mx-auto grid h-14 w-14 place-items-center rounded-2xl bg-primary/15 text-primary-ink">
          <GameIcon id={game.id} className="h-7 w-7" />
        </div>
        <h1 className="mt-3 text-2xl font-bold">{game.title}</h1>
        <p className="mt-3 flex items-start justify-center gap-2 text-muted-foreground">
          <Construction className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
          <span>This game is currently under development and will be available soon!</span>
        </p>
        <Button className="mt-5" onClick={onExit}>
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Lobby
        </Button>
      </Card>
    </main>
  );
}
