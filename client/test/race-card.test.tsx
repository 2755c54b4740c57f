import { beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { raceCustomId, raceOfCustomId, type RaceRow, type RaceView } from "@casino/common/together";
import { racePush } from "@casino/common/together-schemas";
import { RacePanel } from "../src/features/together/RacePanel";
import { countdownText, raceShareMessage } from "../src/features/together/race-words";
import { useTogether } from "../src/store/together";

/**
 * The race card of the Tonight tab: what it offers in each phase (start, join, nothing while it runs),
 * the countdown on the server's clock, the winner once finished, and the share link's words and
 * `custom_id` within Discord's limits.
 */
const togetherState = useTogether.getState();
beforeEach(() => useTogether.setState(togetherState, true));

const ID = "0b8d5a52-6f0e-4a43-9b0e-3f1d2c4b5a69";
const row = (rank: number, username: string, net: number, fields: Partial<RaceRow> = {}): RaceRow => ({
  rank,
  discordId: `30000000000000000${rank}`,
  username,
  avatarUrl: null,
  face: `face-${rank}`,
  hidden: false,
  self: false,
  net,
  rounds: 2,
  winner: false,
  ...fields,
});
const race = (fields: Partial<RaceView>): RaceView => ({
  id: ID,
  phase: "joining",
  minutes: 5,
  startedBy: "Ann",
  joinClosesAt: "2026-06-01T20:00:30.000Z",
  endsAt: "2026-06-01T20:05:30.000Z",
  now: "2026-06-01T20:00:00.000Z",
  joined: false,
  rows: [row(1, "Ann", 0, { rounds: 0 })],
  ...fields,
});
const nameOf = (r: RaceRow) => r.username;

/** Shows `view` as pushed now: the card counts down from the push's server time. */
function show(view: RaceView | null, sender = { start: vi.fn(), join: vi.fn() }) {
  useTogether.setState({ race: view, raceSkewMs: view ? Date.parse(view.now) - Date.now() : 0, raceSender: sender });
  render(<RacePanel nameOf={nameOf} />);
  return sender;
}

describe("the race card", () => {
  it("offers the three lengths when no race is on, and sends the one chosen", () => {
    const sender = show(null);
    fireEvent.click(screen.getByRole("button", { name: "Start a 10-minute race" }));
    expect(sender.start).toHaveBeenCalledWith(10);
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual(["5 min", "10 min", "15 min"]);
  });

  it("offers Join with the window's countdown, and no start, while members join", () => {
    const sender = show(race({}));
    expect(screen.getByTestId("race-title").textContent).toBe("Ann started a 5-minute race");
    expect(screen.getByTestId("race-countdown").textContent).toBe("starts in 0:30");
    expect(screen.queryByTestId("race-start")).toBeNull();
    fireEvent.click(screen.getByTestId("race-join"));
    expect(sender.join).toHaveBeenCalledOnce();
  });

  it("offers nothing to a member already in it, and shows the time left and the order while it runs", () => {
    show(race({ joined: true }));
    expect(screen.queryByTestId("race-join")).toBeNull();
    const running = race({
      phase: "running",
      joined: true,
      now: "2026-06-01T20:01:30.000Z",
      rows: [row(1, "Ben", 40), row(2, "Ann", -10)],
    });
    act(() => useTogether.setState({ race: running, raceSkewMs: Date.parse(running.now) - Date.now() }));
    expect(screen.getByTestId("race-countdown").textContent).toMatch(/^4:0\d left$/);
    expect(screen.getAllByTestId("race-row").map((r) => r.getAttribute("data-net"))).toEqual(["40", "-10"]);
    expect(screen.queryByTestId("race-start")).toBeNull();
  });

  it("names the winner once finished and offers another race", () => {
    show(race({ phase: "finished", rows: [row(1, "Ben", 40, { winner: true }), row(2, "Ann", -10, { self: true })] }));
    expect(screen.getByTestId("race-title").textContent).toBe("Ben wins the race!");
    expect(within(screen.getAllByTestId("race-row")[0]!).getByLabelText("Winner")).toBeTruthy();
    expect(screen.getByTestId("race-start").textContent).toContain("Start another race");
    // Outside Discord (this test launches none) the share is not offered.
    expect(screen.queryByTestId("race-share")).toBeNull();
  });

  it("says so when nobody played", () => {
    show(race({ phase: "finished", rows: [row(1, "Ann", 0, { rounds: 0 })] }));
    expect(screen.getByTestId("race-title").textContent).toBe("The race is over: nobody played");
  });
});

describe("the race's words and share link", () => {
  it("counts down in m:ss, never below 0:00", () => {
    expect([countdownText(300_000), countdownText(61_001), countdownText(999), countdownText(-5)]).toEqual([
      "5:00",
      "1:02",
      "0:01",
      "0:00",
    ]);
  });

  it("keeps the share message within 1,000 characters and the custom_id within 64, naming the race", () => {
    const many = Array.from({ length: 60 }, (_, i) => row(i + 1, `Player with a long name ${i}`, 100 - i, { winner: i === 0 }));
    const message = raceShareMessage(race({ phase: "finished", rows: many }));
    expect(message.length).toBe(1000);
    expect(message.endsWith("...")).toBe(true);
    expect(
      message.startsWith(
        "Player with a long name 0 won our 5-minute race! 1. Player with a long name 0 +100 · 2. Player with a long name 1 +99",
      ),
    ).toBe(true);
    expect(raceCustomId(ID).length).toBeLessThanOrEqual(64);
    expect(raceOfCustomId(raceCustomId(ID))).toBe(ID);
    for (const other of ["race.", "race.not-a-uuid", `r.${ID}`, null, undefined]) expect(raceOfCustomId(other)).toBeNull();
  });

  it("reads a race push only in its shape", () => {
    expect(racePush.safeParse({ instanceId: "i-1", race: race({}) }).success).toBe(true);
    expect(racePush.safeParse({ instanceId: "i-1", race: { ...race({}), minutes: 7 } }).success).toBe(false);
    expect(racePush.safeParse({ instanceId: "i-1", race: { ...race({}), playerId: "x" } }).success).toBe(false);
  });
});
