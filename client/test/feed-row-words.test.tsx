import { beforeEach, describe, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/react";
import type { FeedEntry, FeedRow } from "@casino/common/together";
import { togetherFeedPush } from "@casino/common/together-schemas";
import { TogetherFeeds } from "../src/features/together/TogetherPanel";
import { WatchDialog } from "../src/features/together/WatchedTable";
import { useTogether } from "../src/store/together";

/**
 * A feed row tells a round as "My bets" does: the bet's own multiplier (the server's, never paid ÷
 * stake), then apart and labelled what was paid, and the net figure. A round with no single multiplier
 * shows none; rounds folded into one entry in a flood say how many they are.
 */
const togetherState = useTogether.getState();
beforeEach(() => useTogether.setState(togetherState, true));

let n = 0;
const row = (fields: Partial<FeedRow>): FeedRow => ({
  id: `row-${++n}`,
  kind: "round",
  username: "Erin",
  avatarUrl: null,
  anonymous: false,
  game: "dice",
  stake: 10,
  payout: 19,
  multiplier: 1.98,
  big: false,
  at: new Date(0).toISOString(),
  serverSeedHash: "a".repeat(64),
  nonce: n,
  ...fields,
});

/** The big wins feed (the one shown outside an activity) with these entries, oldest first as pushed. */
function showBigWins(entries: FeedEntry[]) {
  useTogether.getState().addFeed({ instance: [], global: entries });
  render(<TogetherFeeds />);
  return within(screen.getByTestId("feed-global"));
}

describe("a feed row's words", () => {
  it("say the bet's 1.98× for a dice win paid 19, with paid 19 and +9 apart", () => {
    const feed = showBigWins([row({ payout: 19, multiplier: 1.98 })]);
    const line = feed.getByTestId("feed-row");
    expect(within(line).getByTestId("feed-row-multiplier").textContent).toBe("1.98×");
    expect(within(line).getByTestId("feed-row-paid").textContent).toBe("paid 19");
    expect(within(line).getByTestId("feed-row-net").textContent).toBe("+9");
    expect(line.textContent).toBe("ErinDice1.98× paid 19 +9");
    // never what the whole coins paid would make of it
    expect(line.textContent).not.toMatch(/1\.90×|2\.00×/);
  });

  it("say no multiplier for a round that has none, and still what it paid and its net", () => {
    const feed = showBigWins([row({ kind: "table", game: "blackjack", stake: 20, payout: 50, multiplier: null })]);
    const line = feed.getByTestId("feed-row");
    expect(within(line).queryByTestId("feed-row-multiplier")).toBeNull();
    expect(within(line).getByTestId("feed-row-paid").textContent).toBe("paid 50");
    expect(within(line).getByTestId("feed-row-net").textContent).toBe("+30");
    expect(line.textContent).not.toMatch(/×/);
  });

  it("say a loss as paid 0 and the stake lost, and a skill reward as its net figure alone", () => {
    const feed = showBigWins([row({ payout: 0 }), row({ kind: "skill", game: "dots", stake: 0, payout: 5, multiplier: null })]);
    const [skill, lost] = feed.getAllByTestId("feed-row");
    expect(lost!.textContent).toBe("ErinDice1.98× paid 0 -10");
    expect(within(skill!).queryByTestId("feed-row-paid")).toBeNull();
    expect(within(skill!).getByTestId("feed-row-net").textContent).toBe("+5");
  });

  it("say a Hold'em hand as the table's name, what the seat won and its net, and nothing of its cards", () => {
    const pushed = togetherFeedPush.parse({
      instance: [],
      global: [row({ kind: "holdem", game: "holdem", id: "holdem:h:3", stake: 40, payout: 95, multiplier: null, nonce: 7 })],
    });
    const feed = showBigWins(pushed.global);
    const line = feed.getByTestId("feed-row");
    expect(line.textContent).toBe("ErinHold'em table won 95 +55");
    expect(line.getAttribute("title")).toBe("Hold'em hand #7");
    expect(line.tagName).not.toBe("BUTTON");
  });

  it("say how many rounds a folded entry stands for, in its place among the rows", () => {
    const before = row({});
    const after = row({});
    const feed = showBigWins([before, { kind: "folded", id: "folded:1", rounds: 60, at: new Date(0).toISOString() }, after]);
    const folded = feed.getByTestId("feed-folded");
    expect(folded.textContent).toBe("+60 more big wins: too many at once to list one by one");
    expect(folded.getAttribute("data-rounds")).toBe("60");
    // newest first: the row after the flood, the folded entry, the row before it
    const order = [...feed.getByRole("list").children].map(
      (li) => li.querySelector("[data-round]")?.getAttribute("data-round") ?? "folded",
    );
    expect(order).toEqual([after.id, "folded", before.id]);
  });

  it("are read from a push only when it has the shape the server sends", () => {
    expect(togetherFeedPush.safeParse({ instance: [row({})], global: [] }).success).toBe(true);
    const { multiplier: _dropped, ...withoutMultiplier } = row({});
    expect(togetherFeedPush.safeParse({ instance: [withoutMultiplier], global: [] }).success).toBe(false);
    expect(togetherFeedPush.safeParse({ instance: [{ kind: "folded", id: "folded:2", rounds: 0, at: "x" }], global: [] }).success).toBe(
      false,
    );
  });
});

describe("the watch view of a settled round", () => {
  it("says the bet's 1.98× for a dice win paid 19, with paid 19 and +9 apart", () => {
    render(
      <WatchDialog
        discordId="8300021"
        name="Erin"
        game="dice"
        waiting={false}
        onClose={() => undefined}
        round={{ game: "dice", totalStake: 10, totalPayout: 19, multiplier: 1.98, done: true, result: "win", view: {} }}
      />,
    );
    expect(screen.getByTestId("watch-status").textContent).toBe("1.98×");
    expect(screen.getByTestId("watch-status").getAttribute("data-status")).toBe("Won");
    expect(screen.getByTestId("watch-payout").textContent).toBe("19");
    expect(screen.getByTestId("watch-net").textContent).toBe("+9");
  });

  it("says no multiplier for a settled round that has none", () => {
    render(
      <WatchDialog
        discordId="8300021"
        name="Erin"
        game="baccarat"
        waiting={false}
        onClose={() => undefined}
        round={{ game: "baccarat", totalStake: 20, totalPayout: 39, multiplier: null, done: true, result: "win", view: {} }}
      />,
    );
    expect(screen.getByTestId("watch-status").textContent).toBe("—");
    expect(screen.getByTestId("watch-net").textContent).toBe("+19");
  });
});
