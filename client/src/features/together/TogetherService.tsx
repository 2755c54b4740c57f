import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { gameDefinition } from "@casino/common/catalogue";
import {
  TOGETHER_PUSH,
  raceOfCustomId,
  roundOfCustomId,
  type MembersPush,
  type RaceView,
  type TablePush,
  type TogetherMember,
} from "@casino/common/together";
import type { ReactionPush } from "@casino/common/reactions";
import { racePush, raceViewSchema, togetherFeedPush, tonightBoardPush } from "@casino/common/together-schemas";
import { api, seg } from "../../net/api";
import { TogetherConnection } from "../../net/together-room";
import { useReactions } from "../../store/reactions";
import { useLobby } from "../../store/lobby";
import { useSession } from "../../store/session";
import { toast } from "../../store/toast";
import { useTogether } from "../../store/together";
import { launchCustomId, updatePresence, watchParticipants } from "../../platform/discord-together";
import { lockOrientation, watchLayoutMode } from "../../platform/discord-layout";
import { openRoundVerify } from "./open-round";
import { raceOrderText } from "./race-words";
import { showTonight } from "./show-tonight";

/**
 * A new members list: the watched member gone from it ends the watch; a new watcher of the player's
 * own table is announced once.
 */
function onMembers(members: TogetherMember[]): void {
  const state = useTogether.getState();
  const me = members.find((m) => m.self);
  const watchersOf = (list: TogetherMember[]) =>
    me?.discordId ? list.filter((m) => !m.self && !m.hidden && m.watching === me.discordId) : [];
  const before = new Set(watchersOf(state.members).map((m) => m.discordId));
  for (const m of watchersOf(members)) {
    if (!before.has(m.discordId)) toast({ title: `${m.username} is watching your table` });
  }
  useTogether.setState({ members });
  if (state.watching && !members.some((m) => m.discordId === state.watching && !m.hidden)) state.watch(null);
}

/** A race pushed: kept with the server's clock skew; its end is announced once, with the final order. */
function onRace(race: RaceView | null): void {
  const before = useTogether.getState().race;
  useTogether.setState({ race, raceSkewMs: race ? Date.parse(race.now) - Date.now() : 0 });
  if (race?.phase === "finished" && before?.id === race.id && before.phase !== "finished") {
    const winner = race.rows.find((r) => r.winner);
    toast({
      title: winner ? `${winner.self ? "You win" : `${winner.username} wins`} the race!` : "The race is over",
      description: raceOrderText(race.rows),
      duration: 8000,
    });
  }
}

/**
 * Playing together, without a view of its own (mounted once for a signed-in page): the together room's
 * connection, the table the player sits at, Discord's participants, the rich presence, and a round
 * named by the share link the activity was launched from. Also, inside Discord, the phone's orientation
 * lock per screen and the layout mode (picture-in-picture shows the compact view).
 */
export default function TogetherService() {
  const token = useSession((s) => s.token);
  const discord = useSession((s) => s.discord);
  const activeGame = useLobby((s) => s.activeGame);
  const participants = useTogether((s) => s.participants);
  const sharedTable = useTogether((s) => s.sharedTable);
  const holdemTable = useTogether((s) => s.holdemTable);
  const connection = useRef<TogetherConnection | null>(null);
  const [, navigate] = useLocation();
  const instanceId = discord?.instanceJoined ? discord.instanceId : null;

  useEffect(() => {
    if (!token) return;
    const c = new TogetherConnection(token, instanceId, {
      status: (status) => {
        // A new or resumed connection is told the table again.
        if (status !== "open") return;
        useReactions.setState({ sender: instanceId ? (reaction, target) => c.react(reaction, target) : null });
        useTogether.setState({ raceSender: instanceId ? { start: (minutes) => c.raceStart(minutes), join: () => c.raceJoin() } : null });
        c.at(useLobby.getState().activeGame, useTogether.getState().sharedTable, useTogether.getState().holdemTable);
        const watching = useTogether.getState().watching;
        if (watching) c.watch(watching);
      },
      state: () => undefined,
      push: (type, body) => {
        if (type === TOGETHER_PUSH.members) onMembers((body as MembersPush).members);
        else if (type === TOGETHER_PUSH.feed) {
          const parsed = togetherFeedPush.safeParse(body);
          if (parsed.success) useTogether.getState().addFeed(parsed.data);
          else console.error("unreadable feed push", parsed.error);
        } else if (type === TOGETHER_PUSH.board) {
          const parsed = tonightBoardPush.safeParse(body);
          if (parsed.success) useTogether.setState({ board: parsed.data });
          else console.error("unreadable board push", parsed.error);
        } else if (type === TOGETHER_PUSH.race) {
          const parsed = racePush.safeParse(body);
          if (parsed.success) onRace(parsed.data.race);
          else console.error("unreadable race push", parsed.error);
        } else if (type === TOGETHER_PUSH.reaction) useReactions.getState().receive(body as ReactionPush);
        else if (type === TOGETHER_PUSH.table) {
          const push = body as TablePush;
          if (push.discordId === useTogether.getState().watching) useTogether.setState({ table: push });
        } else if (type === TOGETHER_PUSH.error) {
          const error = body as { code?: string; message?: string };
          if (error.code === "race_refused") {
            toast({ title: "Race", description: error.message ?? "", variant: "destructive" });
            return;
          }
          if (error.code === "rate_limited" || error.code === "reaction_refused") {
            toast({ title: "Reaction not sent", description: error.message ?? "", variant: "destructive" });
            return;
          }
          if (error.code !== "not_watchable" && error.code !== "unavailable") return;
          useTogether.getState().watch(null);
          toast({ title: "Cannot watch that table", description: error.message ?? "", variant: "destructive" });
        }
      },
    });
    connection.current = c;
    void c.start();
    return () => {
      c.close();
      connection.current = null;
      useReactions.setState({ sender: null, shown: [] });
      useTogether.setState({ board: null, race: null, raceSender: null });
    };
  }, [token, instanceId]);

  useEffect(() => connection.current?.at(activeGame, sharedTable, holdemTable), [activeGame, sharedTable, holdemTable]);
  // The table watched follows the store (the strip's Watch buttons and the watch view's Close).
  useEffect(
    () =>
      useTogether.subscribe((s, before) => {
        if (s.watching !== before.watching) connection.current?.watch(s.watching);
      }),
    [],
  );

  useEffect(() => {
    if (!discord) return;
    let stop: (() => void) | undefined;
    let gone = false;
    void watchParticipants((list) => useTogether.setState({ participants: list.filter((p) => !(p as { bot?: boolean }).bot) })).then(
      (unsubscribe) => (gone ? unsubscribe() : (stop = unsubscribe)),
    );
    return () => {
      gone = true;
      stop?.();
    };
  }, [discord]);

  useEffect(() => {
    if (!discord) return;
    let stop: (() => void) | undefined;
    let gone = false;
    void watchLayoutMode().then((unsubscribe) => (gone ? unsubscribe() : (stop = unsubscribe)));
    return () => {
      gone = true;
      stop?.();
    };
  }, [discord]);

  useEffect(() => {
    if (discord) void lockOrientation(activeGame ? "table" : "lobby");
  }, [discord, activeGame]);

  // The rich presence follows the table and the party's size.
  useEffect(() => {
    if (!discord) return;
    const title = activeGame ? gameDefinition(activeGame)?.title : null;
    updatePresence({
      details: holdemTable
        ? holdemTable.seat === null
          ? "Watching the Hold'em table"
          : "At the Hold'em table"
        : activeGame === "blackjack" && sharedTable
          ? "At the blackjack table"
          : title
            ? `Playing ${title}`
            : "In the lobby",
      state: "Virtual coins only",
      partySize: participants?.length ?? 1,
      startedAt: useTogether.getState().startedAt,
    });
  }, [discord, activeGame, sharedTable, holdemTable, participants?.length]);

  // Launched from a share link: the round or the race it names.
  useEffect(() => {
    if (!discord || !token) return;
    const round = roundOfCustomId(launchCustomId());
    if (round) void openRoundVerify(round.serverSeedHash, round.nonce, token, navigate);
    const raceId = raceOfCustomId(launchCustomId());
    if (raceId)
      void api<unknown>(`/races/${seg(raceId)}`, { token })
        .then((body) => {
          useTogether.setState({ sharedRace: raceViewSchema.parse(body) as RaceView });
          showTonight();
        })
        .catch((error) => console.warn("shared race not opened", error));
    // once per session
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [discord, token]);

  return null;
}
