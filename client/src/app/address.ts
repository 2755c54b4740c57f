import { navigate as browserNavigate } from "wouter/use-browser-location";
import { gameDefinition, type GameId } from "@casino/common/catalogue";

/**
 * Every screen's address: the lobby's tabs (`/`, `/daily-spin`, `/leaderboard`), each game
 * (`/games/<id>`, shown in place of the lobby), the Hold'em table (`/holdem`) and the other pages. Inside Discord's frame the app may
 * be served under `/.proxy` (the prefix Discord's proxy strips), and Discord's launch parameters
 * (frame_id, instance_id, ...) stay in the query string of every address the app moves to, so a reload of
 * the frame still finds them.
 */

export type LobbyTab = "games" | "daily" | "leaderboard";

/** Where the app is: a lobby tab, a game in place of the lobby, or one of the other pages. */
export type Place = { page: "lobby"; tab: LobbyTab } | { page: "game"; game: GameId } | { page: "other" };

/** Discord's proxy serves `/.proxy/<path>` as `/<path>` (docs/discord-deploy.md). */
export const PROXY_PREFIX = "/.proxy";

/** The query parameters Discord launches the activity with (the Embedded App SDK reads them from the address). */
export const LAUNCH_PARAMS = [
  "frame_id",
  "instance_id",
  "platform",
  "guild_id",
  "channel_id",
  "location_id",
  "custom_id",
  "referrer_id",
  "mobile_app_version",
] as const;

const TAB_PATHS: Record<LobbyTab, string> = { games: "/", daily: "/daily-spin", leaderboard: "/leaderboard" };

/** The Hold'em table's page: a public table with a free seat (the lobby's poker tile opens it). */
export const HOLDEM_PATH = "/holdem";

/** The app's pages other than the lobby and the games (App.tsx routes each). */
export const OTHER_PAGES = ["/terms", "/privacy", "/settings", "/verify", "/fairness", HOLDEM_PATH] as const;

/** The prefix the app is served under: `/.proxy` when the address starts with it, otherwise none. */
export const baseOf = (pathname: string): string =>
  pathname === PROXY_PREFIX || pathname.startsWith(`${PROXY_PREFIX}/`) ? PROXY_PREFIX : "";

/** Discord's launch parameters present in a query string (empty outside Discord). */
export function launchQueryOf(search: string): URLSearchParams {
  const all = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const name of LAUNCH_PARAMS) {
    const value = all.get(name);
    if (value !== null) kept.set(name, value);
  }
  return kept;
}

/** `to` with the launch parameters added after its own query (its own text unchanged, its values win), before any `#hash`. */
export function withLaunchQuery(to: string, launch: URLSearchParams): string {
  if (launch.toString() === "") return to;
  const hashAt = to.indexOf("#");
  const hash = hashAt < 0 ? "" : to.slice(hashAt);
  const beforeHash = hashAt < 0 ? to : to.slice(0, hashAt);
  const queryAt = beforeHash.indexOf("?");
  const own = queryAt < 0 ? "" : beforeHash.slice(queryAt + 1);
  const ownNames = new URLSearchParams(own);
  const added = new URLSearchParams();
  for (const [name, value] of launch) if (!ownNames.has(name)) added.set(name, value);
  const query = [own, added.toString()].filter(Boolean).join("&");
  return `${queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt)}${query ? `?${query}` : ""}${hash}`;
}

/** The place an app path (without the base) names; `null` for a path the app has no page at. */
export function placeOf(path: string): Place | null {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, "") : path;
  for (const [tab, tabPath] of Object.entries(TAB_PATHS)) if (trimmed === tabPath) return { page: "lobby", tab: tab as LobbyTab };
  const game = /^\/games\/([^/]+)$/.exec(trimmed);
  if (game) {
    const definition = gameDefinition(game[1]);
    return definition ? { page: "game", game: definition.id as GameId } : null;
  }
  return (OTHER_PAGES as readonly string[]).includes(trimmed) ? { page: "other" } : null;
}

export const tabPath = (tab: LobbyTab): string => TAB_PATHS[tab];
export const gamePath = (game: GameId): string => `/games/${game}`;

// The address this visit was launched at: its base and Discord's parameters, read once.
const base = typeof location === "undefined" ? "" : baseOf(location.pathname);
const launch = typeof location === "undefined" ? new URLSearchParams() : launchQueryOf(location.search);

/** The app's path now, without the base. */
export function currentPath(): string {
  const path = location.pathname.slice(base.length);
  return path.startsWith("/") ? path : `/${path}`;
}

/** Where the app is now: an address it has no page at is the lobby's first tab. */
export const currentPlace = (): Place => placeOf(currentPath()) ?? { page: "lobby", tab: "games" };

/** The history entry of a game opened over the lobby: Back from it is the browser's Back. */
interface EntryState {
  aboveLobby?: boolean;
}
export const isAboveLobby = (): boolean => (history.state as EntryState | null)?.aboveLobby === true;

/** Whether this page was reached by a move inside the app (a link or `go`), not loaded at its address. */
let movedInApp = false;

/** Moves to an app path (without the base), as a new history entry or in place of this one. */
export function go(path: string, options: { replace?: boolean; aboveLobby?: boolean } = {}): void {
  const state: EntryState | null = options.aboveLobby ? { aboveLobby: true } : null;
  movedInApp = true;
  browserNavigate(withLaunchQuery(base + path, launch), { replace: options.replace ?? false, state });
}

/**
 * "Back to the casino" from a page over the casino (the verifier, the fairness page): where the player
 * came from inside the app (the game whose Verify link they followed), else the lobby.
 */
export function backToCasino(event: { preventDefault(): void }): void {
  if (!movedInApp) return; // the link's own "/" is the way back
  event.preventDefault();
  history.back();
}

/**
 * What the router of App.tsx adds to every link and navigation: the base, and Discord's launch
 * parameters in the query.
 */
export const ROUTER_OPTIONS = {
  base,
  hrefs: (href: string) => withLaunchQuery(href, launch),
  aroundNav: (
    navigate: (to: string, options?: { replace?: boolean; state?: unknown }) => void,
    to: string,
    options?: { replace?: boolean; state?: unknown },
  ) => {
    movedInApp = true;
    navigate(withLaunchQuery(to, launch), options);
  },
};

/**
 * Run once at start-up, before the app renders: an address the app has no page at becomes the lobby's,
 * and a game opened by its link (not over the lobby, so Back would leave the app) gets the lobby's entry
 * under it, so Back from it returns to the lobby. A reload keeps the entry's state, so this adds nothing
 * then.
 */
export function settleAddress(): void {
  const place = placeOf(currentPath());
  if (place === null) go("/", { replace: true });
  else if (place.page === "game" && !isAboveLobby()) {
    const here = currentPath();
    go("/", { replace: true });
    go(here, { aboveLobby: true });
  }
}
