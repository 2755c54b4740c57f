import { lazy, Suspense, useEffect } from "react";
import * as Tabs from "@radix-ui/react-tabs";
import { Gamepad2, Gift, Trophy } from "lucide-react";
import { useLobby, type LobbyTab } from "../../store/lobby";
import { useSession } from "../../store/session";
import { Header } from "./Header";
import { GamesTab } from "./GamesTab";
import { SuggestionsButton } from "../suggestions/SuggestionsButton";
import { TogetherFeeds, TogetherStrip } from "../together";
import { StripPlaceholder } from "../together/strip-frame";
import { afterIdle, AfterIdle } from "../../ui/idle";
import { SpinReadyDot } from "../daily-spin/SpinReadyButton";
import { useSpinAvailability } from "../daily-spin/useSpinAvailability";

const loadDaily = () => import("../daily-spin/DailySpinTab");
const loadLeaderboard = () => import("../leaderboard/LeaderboardTab");
const DailySpinTab = lazy(loadDaily);
const LeaderboardTab = lazy(loadLeaderboard);

const TABS: { value: LobbyTab; label: string; short: string; Icon: typeof Gift }[] = [
  { value: "games", label: "Games", short: "Play", Icon: Gamepad2 },
  { value: "daily", label: "Daily Spin", short: "Spin", Icon: Gift },
  { value: "leaderboard", label: "Leaderboard", short: "Ranks", Icon: Trophy },
];

/** The lobby: header, then the Games, Daily Spin and Leaderboard tabs. */
export function Lobby() {
  const tab = useLobby((s) => s.tab);
  const setTab = useLobby((s) => s.setTab);
  const player = useSession((s) => s.player);
  const inInstance = useSession((s) => s.discord?.instanceJoined === true);
  const spinReady = useSpinAvailability().ready;

  // The other tabs' code is fetched once the lobby is on screen, so switching tabs does not wait.
  useEffect(
    () =>
      afterIdle(() => {
        void loadDaily();
        void loadLeaderboard();
      }),
    [],
  );

  return (
    <>
      <Header />
      <main className="mx-auto w-full max-w-6xl flex-1 px-3 pt-4 sm:px-4">
        {/* Who is here first: the strip is the first thing under the header (nothing outside an activity). */}
        {/* Inside an activity its room is kept from the first paint: nothing moves as it arrives. */}
        {inInstance && (
          <div className="mb-3">
            <AfterIdle fallback={<StripPlaceholder />}>
              <TogetherStrip fallback={<StripPlaceholder />} />
            </AfterIdle>
          </div>
        )}
        <Tabs.Root value={tab} onValueChange={(v) => setTab(v as LobbyTab)}>
          <Tabs.List
            aria-label="Lobby"
            className="mb-5 grid grid-cols-3 gap-1 rounded-xl border border-border bg-muted/50 p-1 sm:inline-grid sm:w-auto"
          >
            {TABS.map(({ value, label, short, Icon }) => (
              <Tabs.Trigger
                key={value}
                value={value}
                className="relative flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-muted-foreground transition data-[state=active]:bg-primary data-[state=active]:inset-ring-2 data-[state=active]:inset-ring-primary-edge data-[state=active]:text-primary-foreground data-[state=active]:shadow sm:px-5"
              >
                <Icon className="h-4 w-4" aria-hidden />
                <span className="sm:hidden">{short}</span>
                <span className="hidden sm:inline">{label}</span>
                {value === "daily" && spinReady && (
                  <>
                    <SpinReadyDot />
                    <span className="sr-only">(ready)</span>
                  </>
                )}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="games" className="outline-none">
            <GamesTab />
          </Tabs.Content>
          <Tabs.Content value="daily" className="outline-none">
            <Suspense fallback={<p className="text-muted-foreground">Loading...</p>}>{player && <DailySpinTab player={player} />}</Suspense>
          </Tabs.Content>
          <Tabs.Content value="leaderboard" className="outline-none">
            <Suspense fallback={<p className="text-muted-foreground">Loading...</p>}>
              <LeaderboardTab />
            </Suspense>
          </Tabs.Content>
        </Tabs.Root>
        <AfterIdle>
          <TogetherFeeds />
        </AfterIdle>
        <SuggestionsButton />
      </main>
    </>
  );
}
