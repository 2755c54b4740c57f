import { lazy, Suspense, useDeferredValue, useEffect, type ReactNode } from "react";
import { Route, Router, Switch } from "wouter";
import { Toaster } from "../ui/Toaster";
import { Footer } from "../ui/Footer";
import { Centered } from "../ui/Centered";
import { useSession } from "../store/session";
import { useLobby } from "../store/lobby";
import { Lobby } from "../features/lobby/Lobby";
import { ConnectionErrorScreen, ConnectionErrorBanner } from "../features/dialogs/ConnectionError";
import { StartupDialogs } from "../features/dialogs/StartupDialogs";
import { ConnectionBanner } from "../features/dialogs/ConnectionBanner";
import { Together } from "../features/together";
import { startUp, useRoomConnection } from "./start";
import { AfterIdle } from "../ui/idle";
import { useNoMotionClass } from "../ui/useReducedMotion";
import { useLayout } from "../store/layout";
import { PipView } from "../features/pip/PipView";
import { HOLDEM_PATH, ROUTER_OPTIONS } from "./address";

const SettingsPage = lazy(() => import("../features/settings/SettingsPage"));
const TermsPage = lazy(() => import("../features/legal/TermsPage"));
const PrivacyPage = lazy(() => import("../features/legal/PrivacyPage"));
const GameHost = lazy(() => import("../features/game-host/GameHost"));
const VerifyPage = lazy(() => import("../features/fairness/VerifyPage"));
const FairnessPage = lazy(() => import("../features/fairness/FairnessPage"));
const HoldemPage = lazy(() => import("../games/holdem/HoldemPage"));

export function App() {
  useNoMotionClass();
  // Discord's picture-in-picture tile shows the balance and the round only: toasts wait for the full view.
  const pip = useLayout((s) => s.pip);
  return (
    // Every link and navigation keeps the base (`/.proxy` inside Discord, when launched under it) and
    // Discord's launch parameters (app/address.ts).
    <Router {...ROUTER_OPTIONS}>
      <Switch>
        <Route path="/terms">
          <Page>
            <TermsPage />
          </Page>
        </Route>
        <Route path="/privacy">
          <Page>
            <PrivacyPage />
          </Page>
        </Route>
        {/* The verifier and the specification work without signing in (a shared link opens them anywhere). */}
        <Route path="/verify">
          <Page>
            <VerifyPage />
          </Page>
        </Route>
        <Route path="/fairness">
          <Page>
            <FairnessPage />
          </Page>
        </Route>
        <Route path="/settings">
          <SignedIn>
            <Page>
              <SettingsPage />
            </Page>
          </SignedIn>
        </Route>
        <Route path={HOLDEM_PATH}>
          <SignedIn>
            <Suspense fallback={<Centered>Loading table...</Centered>}>
              <HoldemPage />
            </Suspense>
          </SignedIn>
        </Route>
        {/* The lobby's tabs and the games (/, /daily-spin, /leaderboard, /games/<id>); app/address.ts
            moves any other address to the lobby's at start-up. */}
        <Route>
          <SignedIn>
            <Home />
          </SignedIn>
        </Route>
      </Switch>
      {!pip && <Toaster />}
    </Router>
  );
}

function Page({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <Suspense fallback={<Centered>Loading casino...</Centered>}>{children}</Suspense>
      <Footer />
    </div>
  );
}

/**
 * Start-up gate: "Loading casino...", the Connection Error screen, or the signed-in product.
 *
 * The signed-in page is drawn from a deferred copy of the phase: the store's update renders nothing new
 * at once, and React then renders the page in a transition, in slices that yield to the browser, rather
 * than in one long task (a store update alone is rendered synchronously).
 */
function SignedIn({ children }: { children: ReactNode }) {
  const phase = useDeferredValue(useSession((s) => s.phase));
  const pip = useLayout((s) => s.pip);
  // Normally under way since boot; a visit that began on a standalone page signs in on its way here.
  useEffect(() => void startUp(), []);
  useRoomConnection(phase === "ready");
  if (phase === "starting") return <Centered>Loading casino...</Centered>;
  if (phase === "failed") return <ConnectionErrorScreen />;
  return (
    <>
      {/* Discord's picture-in-picture window: the compact view over the page, which stays mounted. */}
      {pip && <PipView />}
      <div className={pip ? "hidden" : "contents"}>
        <ConnectionErrorBanner />
        <ConnectionBanner />
        {children}
        <StartupDialogs />
      </div>
      <AfterIdle>
        <Together />
      </AfterIdle>
    </>
  );
}

/** The lobby, or the chosen game in its place (the game the address names, see store/lobby.ts). */
function Home() {
  const activeGame = useLobby((s) => s.activeGame);
  if (activeGame) {
    return (
      <div className="flex min-h-dvh flex-col">
        <Suspense fallback={<Centered>Loading game...</Centered>}>
          <GameHost gameId={activeGame} />
        </Suspense>
      </div>
    );
  }
  return (
    <div className="flex min-h-dvh flex-col">
      <Lobby />
      <Footer />
    </div>
  );
}
