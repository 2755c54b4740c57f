import { beforeEach, describe, expect, it } from "vitest";
import type { FeedRow } from "@casino/common/together";
import { acceptAnswer, requestSent, revealed, useRoom } from "../src/store/room";
import { useTogether } from "../src/store/together";

/**
 * The activity's feeds never tell the player's own round before its table does: the rows of the
 * player's seed that arrive while a round is on its way or being revealed wait for it; everyone
 * else's rows show at once.
 */
const roomState = useRoom.getState();
const togetherState = useTogether.getState();
const MY_SEED = "my-seed-hash";

beforeEach(() => {
  useRoom.setState({ ...roomState, seeds: { serverSeedHash: MY_SEED } as never }, true);
  useTogether.setState(togetherState, true);
});

let n = 0;
const row = (fields: Partial<FeedRow> = {}): FeedRow => ({
  id: `row-${++n}`,
  kind: "round",
  username: "someone",
  avatarUrl: null,
  anonymous: false,
  game: "dice",
  stake: 10,
  payout: 20,
  multiplier: 2,
  big: false,
  at: new Date(0).toISOString(),
  serverSeedHash: "another-seed",
  nonce: n,
  ...fields,
});

const ids = () => useTogether.getState().instanceFeed.map((r) => r.id);

describe("the feeds and the player's own round", () => {
  it("hold the player's own row until the table shows the result, and show the others' at once", () => {
    requestSent();
    const mine = row({ serverSeedHash: MY_SEED });
    const theirs = row();
    // the feed can tell the round before its answer arrives
    useTogether.getState().addFeed({ instance: [mine, theirs], global: [] });
    expect(ids()).toEqual([theirs.id]);
    acceptAnswer({ requestId: "bet-1", balance: 1010, done: true, payout: 20, totalStake: 10, totalPayout: 20 });
    expect(ids()).toEqual([theirs.id]);
    revealed("bet-1");
    expect(ids()).toEqual([mine.id, theirs.id]);
  });

  it("show the player's own row at once when no round of theirs is unshown", () => {
    const mine = row({ serverSeedHash: MY_SEED });
    useTogether.getState().addFeed({ instance: [mine], global: [mine] });
    expect(ids()).toEqual([mine.id]);
    expect(useTogether.getState().globalFeed.map((r) => r.id)).toEqual([mine.id]);
  });
});
