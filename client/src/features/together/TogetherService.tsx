import { useEffect, useRef } from "react";
import { useLocation } from "wouter";
import { gameDefinition } from "@casino/common/catalogue";
import { TOGETHER_PUSH, roundOfCustomId, type FeedPush, type MembersPush } from "@casino/common/together";
import { TogetherConnection } from "../../net/together-room";
import { useLobby } from "../../store/lobby";
import { useSession } from "../../store/session";
import { useTogether } from "../../store/together";
import { launchCustomId, updatePresence, watchParticipants } from "../../platform/discord-together";
import { lockOrientation, watchLayoutMode } from "../../platform/discord-layout";
import { openRoundVerify } from "./open-round";

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
  const connection = useRef<TogetherConnection | null>(null);
  const [, navigate] = useLocation();
  const instanceId = discord?.instanceJoined ? discord.instanceId : null;

  useEffect(() => {
    if (!token) return;
    const c = new TogetherConnection(token, instanceId, {
      status: (status) => {
        // A new or resumed connection is told the table again.
        if (status === "open") c.at(useLobby.getState().activeGame);
      },
      state: () => undefined,
      push: (type, body) => {
        if (type === TOGETHER_PUSH.members) useTogether.setState({ members: (body as MembersPush).members });
        else if (type === TOGETHER_PUSH.feed) useTogether.getState().addFeed(body as FeedPush);
      },
    });
    connection.current = c;
    void c.start();
    return () => {
      c.close();
      connection.current = null;
    };
  }, [token, instanceId]);

  useEffect(() => connection.current?.at(activeGame), [activeGame]);

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
      details: title ? `Playing ${title}` : "In the lobby",
      state: "Virtual coins only",
      partySize: participants?.length ?? 1,
      startedAt: useTogether.getState().startedAt,
    });
  }, [discord, activeGame, participants?.length]);

  // Launched from a share link: the round it names.
  useEffect(() => {
    if (!discord || !token) return;
    const round = roundOfCustomId(launchCustomId());
    if (round) void openRoundVerify(round.serverSeedHash, round.nonce, token, navigate);
    // once per session
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [discord, token]);

  return null;
}
