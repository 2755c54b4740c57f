import { useEffect } from "react";
import type { SessionAnswer } from "@casino/common/api";
import { discordLaunch } from "../platform/launch";
import { watchSafeArea } from "../platform/safe-area";
import { guestSession } from "../platform/guest";
import { messageOf, setSessionToken } from "../net/api";
import type { ConnectionStatus } from "../net/room-failure";
import { useSession, type DiscordContext } from "../store/session";
import { useRoom } from "../store/room";
import { adoptPlayerTheme } from "../store/theme";
import { adoptPlayerSettings } from "../store/settings";
import { toast } from "../store/toast";
import { useNotifications } from "../store/notifications";
import { showWhenRoundShown } from "./deferred-toasts";
import { joinActivityInstance, refreshLeaderboard } from "../store/leaderboard";
import { REMINDER_TOAST_MS } from "@casino/common/constants";
import { afterIdle } from "../ui/idle";

let started = false;
/**
 * The room connection carries the Colyseus SDK (its schema decoder and msgpack): a chunk of its own,
 * fetched once the signed-in page is on screen and the browser idle (see `useRoomConnection`), so neither its download nor
 * its parsing delays the lobby's first paint; the balance shows from the player record meanwhile.
 */
let roomModule: Promise<typeof import("../net/room")> | null = null;
const loadRoom = () => (roomModule ??= import("../net/room"));

/**
 * Start-up, both paths (spec section 4): inside Discord the SDK signs in; on any failure, or outside
 * Discord, the device's guest plays. Then the casino room is joined with the session token.
 */
export async function startUp(): Promise<void> {
  if (started) return;
  started = true;
  // Read before anything navigates: the router drops the query string Discord launched us with.
  const launch = discordLaunch(location.search);
  useSession.setState({ embedded: launch !== null });

  if (launch) {
    watchSafeArea(launch.platform);
    try {
      const { startDiscord } = await import("../platform/discord");
      const { session, context } = await startDiscord();
      return signedIn(session, context);
    } catch (error) {
      const message = messageOf(error);
      console.warn(`Discord sign-in failed, continuing in standalone mode: ${message}`);
      useSession.setState({ authError: message });
    }
  }

  try {
    const session = await guestSession();
    signedIn(session, null);
  } catch (error) {
    console.error("Failed to initialise the player", error);
    useSession.setState({ phase: "failed", fatalError: messageOf(error) });
    toast({ title: "Error", description: "Failed to connect to the casino. Please try again.", variant: "destructive" });
  }
}

function signedIn({ session_token: token, player, openRound }: SessionAnswer, discord: DiscordContext | null): void {
  setSessionToken(token);
  adoptPlayerTheme(player);
  adoptPlayerSettings(player);
  // The open round too, so the lobby offers it from its first paint (the room tells of it again).
  useRoom.setState({ balance: player.balance, openRound });
  useSession.setState({ phase: "ready", token, player, discord });
  // The voice channel's board ranks the players the server has seen join this activity instance.
  if (discord && !player.isGuest) void joinActivityInstance(discord.instanceId);
}

/**
 * Joins the casino room once per session token, once the signed-in page (`shown`) has been painted and
 * the browser is idle.
 */
export function useRoomConnection(shown: boolean): void {
  const token = useSession((s) => s.token);
  useEffect(() => {
    if (!shown || !token || useRoom.getState().status !== "idle") return;
    return afterIdle(() => {
      if (useRoom.getState().status === "idle") void connectRoom(token);
    });
  }, [shown, token]);
}

/** Joins the casino room and feeds the stores from it. */
export async function connectRoom(token: string): Promise<void> {
  useRoom.getState().connection?.close();
  useRoom.setState({ status: "connecting", closedReason: null });
  let CasinoConnection: (typeof import("../net/room"))["CasinoConnection"];
  try {
    ({ CasinoConnection } = await loadRoom());
  } catch (error) {
    console.error("Could not load the room connection", error);
    roomModule = null;
    useRoom.setState({ status: "lost" });
    return;
  }
  const connection = new CasinoConnection(token, {
    status: (status: ConnectionStatus) => useRoom.setState({ status }),
    state: ({ balance, openRound, seeds }) => {
      const before = useRoom.getState().balance;
      // Until the room tells of the open round, the sign-in's stands (no "round open" row gone and back).
      useRoom.setState({ balance, seeds, ...(openRound !== undefined && { openRound }) });
      if (before !== null && before !== balance) refreshLeaderboard();
    },
    push: (type, body) => {
      if (type === "notice") {
        const { title, description } = body as { title: string; description: string };
        useNotifications.getState().add(title, description);
        showWhenRoundShown({ title, description, duration: REMINDER_TOAST_MS });
      }
    },
    accountClosed: (reason) => useRoom.setState({ closedReason: reason }),
  });
  useRoom.setState({ connection });
  void connection.start();
}

/** "Retry" after the connection was lost for good. */
export function reconnectRoom(): void {
  const token = useSession.getState().token;
  if (token) void connectRoom(token);
}
