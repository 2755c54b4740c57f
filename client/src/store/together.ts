import { create } from "zustand";
import type {
  FeedEntry,
  FeedPush,
  RaceMinutes,
  RaceView,
  SharedTablePlace,
  TablePush,
  TogetherMember,
  TonightBoardPush,
} from "@casino/common/together";
import type { Participant } from "../platform/discord-together";
import { onRoundsShown, roundUnshown, useRoom } from "./room";

/** Rows each feed keeps on screen. */
export const FEED_KEPT = 30;

interface TogetherState {
  /** Discord's participants of this instance (null outside Discord or before the first answer). */
  participants: Participant[] | null;
  /** The server's members of this instance: table, best win, anonymity. */
  members: TogetherMember[];
  /** Newest first: settled rounds, and rounds the server folded into one entry in a flood. */
  instanceFeed: FeedEntry[];
  globalFeed: FeedEntry[];
  /** When this visit began (the rich presence's start time). */
  startedAt: number;
  /** The member (Discord id) whose table the player watches, and the latest of that table the server pushed. */
  watching: string | null;
  table: TablePush | null;
  /** The player's own place at the instance's shared blackjack table while its view is open, else null. */
  sharedTable: SharedTablePlace | null;
  /** The player's own place at the instance's Hold'em table while its page is open, else null. */
  holdemTable: SharedTablePlace | null;
  /** The instance's tonight board as the server last pushed it (null before the first push). */
  board: TonightBoardPush | null;
  /** Which tab the activity's card shows: its live feed or tonight's board. */
  activityTab: "live" | "tonight";
  /** The instance's race as the server last pushed it (null: none to show), and the server's clock minus this one's then. */
  race: RaceView | null;
  raceSkewMs: number;
  /** Sends the race messages on the open together connection (null while none). */
  raceSender: { start(minutes: RaceMinutes): void; join(): void } | null;
  /** A race opened from a share link (its scoreboard, read from the server), until closed. */
  sharedRace: RaceView | null;
  addFeed(push: FeedPush): void;
  watch(discordId: string | null): void;
}

const newestFirst = (kept: FeedEntry[], rows: FeedEntry[]) => {
  const seen = new Set(kept.map((r) => r.id));
  return [...rows.filter((r) => !seen.has(r.id)).reverse(), ...kept].slice(0, FEED_KEPT);
};

/**
 * The player's own rounds pushed while one of them is not on its table yet (`roundUnshown`): held, and
 * added when the table has shown the result, so no feed tells the outcome first.
 */
const held: FeedPush = { instance: [], global: [] };

const mine = (row: FeedEntry, seedHash: string | undefined) => row.kind === "round" && !!seedHash && row.serverSeedHash === seedHash;

export const useTogether = create<TogetherState>()((set) => ({
  participants: null,
  members: [],
  instanceFeed: [],
  globalFeed: [],
  startedAt: Date.now(),
  watching: null,
  table: null,
  sharedTable: null,
  holdemTable: null,
  board: null,
  activityTab: "live",
  race: null,
  raceSkewMs: 0,
  raceSender: null,
  sharedRace: null,
  watch: (discordId) => set({ watching: discordId, table: null }),
  addFeed: (push) => {
    const room = useRoom.getState();
    const seedHash = room.seeds?.serverSeedHash;
    const hold = roundUnshown(room) ? (row: FeedEntry) => mine(row, seedHash) : () => false;
    held.instance.push(...push.instance.filter(hold));
    held.global.push(...push.global.filter(hold));
    const instance = push.instance.filter((row) => !hold(row));
    const global = push.global.filter((row) => !hold(row));
    set((s) => ({ instanceFeed: newestFirst(s.instanceFeed, instance), globalFeed: newestFirst(s.globalFeed, global) }));
  },
}));

onRoundsShown(() => {
  if (held.instance.length + held.global.length === 0) return;
  const push = { instance: held.instance.splice(0), global: held.global.splice(0) };
  useTogether.setState((s) => ({
    instanceFeed: newestFirst(s.instanceFeed, push.instance),
    globalFeed: newestFirst(s.globalFeed, push.global),
  }));
});
