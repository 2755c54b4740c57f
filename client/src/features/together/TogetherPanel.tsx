import type { ReactNode } from "react";
import { useLocation } from "wouter";
import { Armchair, Eye, Share2, Sparkles, UserPlus } from "lucide-react";
import { discordAvatarUrl } from "@casino/common/avatar";
import { gameTitleOf } from "@casino/common/catalogue";
import { formatCoins } from "@casino/common/format";
import {
  roundCustomId,
  type FeedEntry,
  type FeedFolded,
  type FeedRow,
  type SharedTablePlace,
  type TogetherMember,
} from "@casino/common/together";
import { Avatar } from "../../ui/Avatar";
import { Button } from "../../ui/Button";
import { cn } from "../../ui/cn";
import { useLobby } from "../../store/lobby";
import { useRoom } from "../../store/room";
import { useSession } from "../../store/session";
import { useTogether } from "../../store/together";
import { HOLDEM_PATH, go } from "../../app/address";
import { canInvite, openInvite, shareLink, type Participant } from "../../platform/discord-together";
import { feedRowFigures, foldedText } from "./feed-figures";
import { openRoundVerify } from "./open-round";
import { ReactionOverlay, ReactionPicker } from "./Reactions";
import { WatchDialog } from "./WatchedTable";
import { TonightBoard, TonightTop } from "./TonightBoard";
import { STRIP_CARD, STRIP_HEAD, STRIP_MEMBERS, STRIP_MEMBER_TEXT, StripHeading } from "./strip-frame";
import { bigWinShareMessage } from "./race-words";

/** One person of the strip: Discord's name and avatar (guild nickname first), the server's table and best win. */
interface StripPerson {
  key: string;
  /** The Discord id (null for a member known only to the server without one). */
  discordId: string | null;
  /** The Discord id of the member whose table this one watches. */
  watching: string | null;
  name: string;
  /**
   * The generated face's seed: the server's (`face`, one per player on every surface) for a member; a
   * participant of the call not in the casino yet has none from the server and gets one from Discord's id.
   */
  faceSeed: string;
  avatarUrl: string | null;
  game: string | null;
  /** The place at the instance's shared blackjack table (a seat, or watching it), null elsewhere. */
  sharedTable: SharedTablePlace | null;
  /** The place at the instance's Hold'em table (a seat, or watching it), null elsewhere. */
  holdemTable: SharedTablePlace | null;
  bestWinToday: number;
  joined: boolean;
  self: boolean;
}

const participantAvatar = (p: Participant) => discordAvatarUrl(p.id, p.avatar);

/**
 * Discord's participants when known (the call is the truth of who is here), else the server's members;
 * anonymous ones left out. `selfId`, the player's own Discord id, marks their own line before the server's
 * member list has reached this client.
 */
function stripPeople(participants: Participant[] | null, members: TogetherMember[], selfId: string | null): StripPerson[] {
  const hidden = new Set(members.filter((m) => m.hidden).map((m) => m.discordId));
  const byId = new Map(members.filter((m) => !m.hidden && m.discordId).map((m) => [m.discordId!, m]));
  if (!participants) {
    return members
      .filter((m) => !m.hidden)
      .map((m) => ({
        key: m.discordId ?? m.username,
        discordId: m.discordId,
        watching: m.watching,
        name: m.username,
        faceSeed: m.face ?? m.username,
        avatarUrl: m.avatarUrl,
        game: m.game,
        sharedTable: m.sharedTable,
        holdemTable: m.holdemTable ?? null,
        bestWinToday: m.bestWinToday,
        joined: true,
        self: m.self,
      }));
  }
  return participants
    .filter((p) => !hidden.has(p.id))
    .map((p) => {
      const m = byId.get(p.id);
      return {
        key: p.id,
        discordId: p.id,
        watching: m?.watching ?? null,
        name: p.nickname || p.global_name || p.username,
        faceSeed: m?.face ?? `discord:${p.id}`,
        avatarUrl: participantAvatar(p) ?? m?.avatarUrl ?? null,
        game: m?.game ?? null,
        sharedTable: m?.sharedTable ?? null,
        holdemTable: m?.holdemTable ?? null,
        bestWinToday: m?.bestWinToday ?? 0,
        joined: m !== undefined,
        self: m?.self ?? p.id === selfId,
      };
    });
}

const titleOf = (game: string | null) => (game ? gameTitleOf(game) : null);

/** What a member of the strip is doing, in one short line. */
function doingLine(p: StripPerson, nameOf: (discordId: string | null) => string): string {
  if (!p.joined) return "Joining...";
  if (p.watching) return `Watching ${nameOf(p.watching)}`;
  if (p.sharedTable) return p.sharedTable.seat === null ? "Watching the blackjack table" : `Blackjack table, seat ${p.sharedTable.seat}`;
  if (p.holdemTable) return p.holdemTable.seat === null ? "Watching the Hold'em table" : `Hold'em table, seat ${p.holdemTable.seat}`;
  return p.game ? `Playing ${titleOf(p.game)}` : "In the lobby";
}

/** The strip and the feeds together (at a table, below it). */
export default function TogetherPanel() {
  return (
    <section aria-label="Playing together" className="my-4 space-y-3" data-testid="together-panel">
      <TogetherStrip />
      <TogetherFeeds />
    </section>
  );
}

/**
 * "In this activity": who is in the Discord activity with the player, what each plays (or whose table
 * each watches) and their best win today, with the Invite button and a Watch button per member at a
 * table; a member at the activity's blackjack or Hold'em table has a Join button instead, which takes
 * the player to that table (to watch, and sit at a free seat). The player's own line says who watches them.
 * Nothing outside an activity.
 */
export function TogetherStrip() {
  const discord = useSession((s) => s.discord);
  const participants = useTogether((s) => s.participants);
  const members = useTogether((s) => s.members);
  const watching = useTogether((s) => s.watching);
  const table = useTogether((s) => s.table);
  const watch = useTogether((s) => s.watch);
  const atTable = useTogether((s) => s.sharedTable !== null);
  const atHoldem = useTogether((s) => s.holdemTable !== null);
  const openGame = useLobby((s) => s.openGame);
  const inInstance = discord?.instanceJoined === true;
  if (!inInstance) return null;
  const people = stripPeople(participants, members, discord?.user.id ?? null);
  const invite = discord !== null && canInvite();
  const alone = people.length <= 1;
  const nameOf = (discordId: string | null) => people.find((p) => p.discordId === discordId)?.name ?? "a player";
  const me = people.find((p) => p.self);
  const watchers = me?.discordId ? people.filter((p) => !p.self && p.watching === me.discordId) : [];
  const watched = watching ? people.find((p) => p.discordId === watching) : undefined;

  return (
    <div className={STRIP_CARD} data-testid="together-strip">
      <div className={STRIP_HEAD}>
        <StripHeading count={people.length} />
        {watchers.length > 0 && (
          <span className="flex min-w-0 items-center gap-1 truncate text-xs font-semibold text-primary-ink" data-testid="watched-by">
            <Eye className="h-3.5 w-3.5 shrink-0" aria-hidden />
            <span className="truncate">Watched by {watchers.map((p) => p.name).join(", ")}</span>
          </span>
        )}
        {invite && (
          <Button
            size="sm"
            variant={alone ? "primary" : "outline"}
            className="ml-auto h-8 shrink-0"
            onClick={() => void openInvite()}
            data-testid="invite-button"
          >
            <UserPlus className="h-4 w-4" aria-hidden /> Invite
            {alone && <span className="hidden min-[400px]:inline"> friends to play</span>}
          </Button>
        )}
      </div>
      <ul className={STRIP_MEMBERS}>
        {people.map((p) => (
          <li
            key={p.key}
            // A member at the blackjack table gets room for the seat and the Join button.
            className={cn(
              "flex min-w-32 shrink-0 items-center gap-2 sm:min-w-36",
              p.sharedTable || p.holdemTable ? "max-w-72" : "max-w-60",
            )}
            data-testid="together-member"
            data-self={p.self || undefined}
          >
            <span className="relative shrink-0">
              <Avatar src={p.avatarUrl} name={p.name} seed={p.faceSeed} className="h-8 w-8" />
              {/* reactions on the member's table, as its watchers send them (the player sees those on their own) */}
              {p.discordId && <ReactionOverlay target={{ kind: "table", discordId: p.discordId }} />}
            </span>
            <div className={STRIP_MEMBER_TEXT}>
              <p className="truncate font-semibold" data-testid="together-member-name">
                {p.name}
                {p.self && <span className="text-muted-foreground"> (you)</span>}
              </p>
              <p
                className="truncate text-muted-foreground"
                data-testid="together-member-game"
                data-seat={p.sharedTable ? (p.sharedTable.seat ?? "watching") : undefined}
                data-holdem-seat={p.holdemTable ? (p.holdemTable.seat ?? "watching") : undefined}
                title={doingLine(p, nameOf)}
              >
                {doingLine(p, nameOf)}
              </p>
              {p.bestWinToday > 0 && (
                <p className="truncate text-muted-foreground" data-testid="together-member-best">
                  Best today +{formatCoins(p.bestWinToday)}
                </p>
              )}
            </div>
            {!p.self && p.joined && p.sharedTable && !atTable && (
              <Button
                size="sm"
                variant="outline"
                className="h-7 shrink-0 gap-1 px-2 text-xs"
                aria-label={`Join ${p.name} at the blackjack table`}
                title={`Join ${p.name} at the blackjack table`}
                data-testid="join-table-button"
                onClick={() => {
                  watch(null);
                  openGame("blackjack", true);
                }}
              >
                <Armchair className="h-3.5 w-3.5" aria-hidden /> Join
              </Button>
            )}
            {!p.self && p.joined && p.holdemTable && !atHoldem && (
              <Button
                size="sm"
                variant="outline"
                className="h-7 shrink-0 gap-1 px-2 text-xs"
                aria-label={`Join ${p.name} at the Hold'em table`}
                title={`Join ${p.name} at the Hold'em table`}
                data-testid="join-holdem-button"
                onClick={() => {
                  watch(null);
                  go(HOLDEM_PATH, { aboveLobby: true });
                }}
              >
                <Armchair className="h-3.5 w-3.5" aria-hidden /> Join
              </Button>
            )}
            {!p.self && p.joined && p.game && !p.sharedTable && !p.holdemTable && p.discordId && (
              <Button
                size="sm"
                variant="outline"
                className="h-7 shrink-0 gap-1 px-2 text-xs"
                aria-label={`Watch ${p.name}'s table`}
                title={`Watch ${p.name}'s table`}
                data-testid="watch-button"
                onClick={() => watch(p.discordId)}
              >
                <Eye className="h-3.5 w-3.5" aria-hidden /> Watch
              </Button>
            )}
          </li>
        ))}
      </ul>
      <TonightTop />
      {watching && (
        <WatchDialog
          discordId={watching}
          name={watched?.name ?? "a player"}
          game={watched?.game ?? null}
          round={table?.round ?? null}
          waiting={table === null}
          onClose={() => watch(null)}
        />
      )}
    </div>
  );
}

/** The activity's live feed of settled rounds and the global big wins (the big wins only outside an activity). */
export function TogetherFeeds() {
  const discord = useSession((s) => s.discord);
  const token = useSession((s) => s.token);
  const instanceFeed = useTogether((s) => s.instanceFeed);
  const globalFeed = useTogether((s) => s.globalFeed);
  const mySeed = useRoom((s) => s.seeds?.serverSeedHash ?? null);
  const [, navigate] = useLocation();
  const tab = useTogether((s) => s.activityTab);
  const inInstance = discord?.instanceJoined === true;
  const tabs = <ActivityTabs tab={tab} />;
  const open = (row: FeedRow) =>
    token &&
    row.kind === "round" &&
    row.serverSeedHash &&
    row.nonce !== null &&
    void openRoundVerify(row.serverSeedHash, row.nonce, token, navigate);
  return (
    <div className={cn("grid gap-3", inInstance && "sm:grid-cols-2")} data-testid="together-feeds">
      {inInstance && tab === "tonight" && <TonightBoard header={tabs} />}
      {inInstance && tab === "live" && (
        <Feed
          header={tabs}
          title="Live in this activity"
          empty="Rounds of the people here show up as they settle."
          folded={{ one: "round", many: "rounds" }}
          rows={instanceFeed}
          testId="feed-instance"
          onOpen={open}
          mySeed={mySeed}
          share={discord !== null}
          reactions
        />
      )}
      <Feed
        title="Big wins"
        empty="No big wins yet."
        folded={{ one: "big win", many: "big wins" }}
        rows={globalFeed}
        testId="feed-global"
        onOpen={open}
        mySeed={mySeed}
        share={discord !== null}
      />
    </div>
  );
}

/** The activity's card has two tabs: its live feed and tonight's board. */
function ActivityTabs({ tab }: { tab: "live" | "tonight" }) {
  const choose = (activityTab: "live" | "tonight") => useTogether.setState({ activityTab });
  const tabClass = (on: boolean) =>
    cn(
      "min-h-8 rounded-md px-2.5 text-sm font-semibold",
      on ? "bg-primary text-primary-foreground" : "text-muted-foreground hover:bg-muted hover:text-foreground",
    );
  return (
    <div role="tablist" aria-label="This activity" className="mb-2 flex items-center gap-1" id="activity-card">
      <button type="button" role="tab" aria-selected={tab === "live"} className={tabClass(tab === "live")} onClick={() => choose("live")}>
        Live in this activity
      </button>
      <button
        type="button"
        role="tab"
        aria-selected={tab === "tonight"}
        className={tabClass(tab === "tonight")}
        onClick={() => choose("tonight")}
        data-testid="tonight-tab"
      >
        Tonight
      </button>
    </div>
  );
}

function Feed(props: {
  /** shown instead of the title (the activity's tabs) */
  header?: ReactNode;
  title: string;
  empty: string;
  /** what the feed's rounds are called where several are folded into one entry */
  folded: { one: string; many: string };
  rows: FeedEntry[];
  testId: string;
  onOpen(row: FeedRow): void;
  mySeed: string | null;
  share: boolean;
  /** the activity's own feed: each row takes reactions */
  reactions?: boolean;
}) {
  return (
    <div className="rounded-2xl border border-border bg-card p-3" data-testid={props.testId}>
      {props.header ?? <h2 className="mb-2 text-sm font-semibold">{props.title}</h2>}
      {props.rows.length === 0 ? (
        <p className="text-xs text-muted-foreground">{props.empty}</p>
      ) : (
        <ul className="max-h-48 space-y-1 overflow-y-auto" aria-live="polite">
          {props.rows.map((row) =>
            row.kind === "folded" ? (
              <li key={row.id} className="flex items-center">
                <FoldedLine entry={row} what={props.folded} />
              </li>
            ) : (
              <li key={row.id} className="relative flex items-center gap-1">
                <FeedLine row={row} onOpen={props.onOpen} />
                {props.reactions && (
                  <>
                    <ReactionPicker target={{ kind: "feed", rowId: row.id }} label={`${row.username}'s ${titleOf(row.game)} round`} />
                    <ReactionOverlay target={{ kind: "feed", rowId: row.id }} />
                  </>
                )}
                {props.share && row.big && row.kind === "round" && row.serverSeedHash && row.serverSeedHash === props.mySeed && (
                  <Button
                    size="sm"
                    variant="ghost"
                    className="h-7 px-2"
                    aria-label="Share this win"
                    data-testid="share-round"
                    onClick={() =>
                      void shareLink(
                        bigWinShareMessage(row.game, row.payout, row.multiplier),
                        roundCustomId(row.serverSeedHash!, row.nonce ?? 0),
                      )
                    }
                  >
                    <Share2 className="h-3.5 w-3.5" aria-hidden />
                  </Button>
                )}
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}

/** Rounds the server folded into one entry in a flood: how many, never silently fewer. */
function FoldedLine({ entry, what }: { entry: FeedFolded; what: { one: string; many: string } }) {
  return (
    <p
      className="min-h-8 flex-1 rounded-lg px-2 py-1 text-xs italic text-muted-foreground"
      data-testid="feed-folded"
      data-rounds={entry.rounds}
    >
      {foldedText(entry, what)}
    </p>
  );
}

/**
 * One row: a solo round opens its verifier (once its seed is revealed); a crash bet names its game
 * number (the crash table's history verifies the game); a skill round shows its reward.
 */
function FeedLine({ row, onOpen }: { row: FeedRow; onOpen(row: FeedRow): void }) {
  const className = cn(
    // 32 px tall at least: a solo round's row is a button (it opens the verifier)
    "flex min-h-8 min-w-0 flex-1 items-center gap-2 rounded-lg px-2 py-1 text-left text-xs",
    row.big && "bg-primary/15 font-semibold",
  );
  const figures = feedRowFigures(row);
  const content = (
    <>
      {row.big && <Sparkles className="h-3.5 w-3.5 shrink-0 text-primary-ink" aria-label="Big win" />}
      <span className="truncate">{row.username}</span>
      <span className="text-muted-foreground">{titleOf(row.game)}</span>
      <span className="ml-auto flex shrink-0 items-baseline gap-1.5 tabular-nums">
        {figures.multiplier && <span data-testid="feed-row-multiplier">{figures.multiplier}</span>}{" "}
        {figures.paid && (
          <span className="text-muted-foreground" data-testid="feed-row-paid">
            {figures.paid}
          </span>
        )}{" "}
        <span data-testid="feed-row-net">{figures.net}</span>
      </span>
    </>
  );
  const common = { "data-testid": "feed-row", "data-big": row.big || undefined, "data-round": row.id, "data-kind": row.kind };
  if (row.kind !== "round") {
    return (
      <div
        className={className}
        {...common}
        title={row.kind === "crash" ? `Crash game #${row.nonce}` : row.kind === "holdem" ? `Hold'em hand #${row.nonce}` : undefined}
      >
        {content}
      </div>
    );
  }
  return (
    <button type="button" onClick={() => onOpen(row)} className={cn(className, "hover:bg-muted")} {...common} title="Verify this round">
      {content}
    </button>
  );
}
