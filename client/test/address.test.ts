import { describe, expect, it } from "vitest";
import { baseOf, launchQueryOf, placeOf, withLaunchQuery } from "../src/app/address";

/** The addresses of the app's screens, and what Discord's frame adds to them (app/address.ts). */
describe("app addresses", () => {
  it("names each lobby tab, each game and the other pages; nothing else", () => {
    expect(placeOf("/")).toEqual({ page: "lobby", tab: "games" });
    expect(placeOf("/daily-spin")).toEqual({ page: "lobby", tab: "daily" });
    expect(placeOf("/leaderboard/")).toEqual({ page: "lobby", tab: "leaderboard" });
    expect(placeOf("/games/dice")).toEqual({ page: "game", game: "dice" });
    expect(placeOf("/games/three-card-poker")).toEqual({ page: "game", game: "three-card-poker" });
    expect(placeOf("/settings")).toEqual({ page: "other" });
    expect(placeOf("/verify")).toEqual({ page: "other" });
    for (const unknown of ["/games", "/games/", "/games/nope", "/games/dice/extra", "/lobby", "/Settings", "/games/%E0%A4%A"])
      expect(placeOf(unknown), unknown).toBeNull();
  });

  it("finds the /.proxy prefix Discord's proxy serves the app under", () => {
    expect(baseOf("/.proxy")).toBe("/.proxy");
    expect(baseOf("/.proxy/games/dice")).toBe("/.proxy");
    expect(baseOf("/games/dice")).toBe("");
    expect(baseOf("/.proxyish/x")).toBe("");
  });

  it("keeps Discord's launch parameters on every address, after the address's own query and before its hash", () => {
    const launch = launchQueryOf("?frame_id=f1&instance_id=i-1&platform=mobile&guild_id=9&utm=x&shoe=abc");
    expect([...launch.keys()]).toEqual(["frame_id", "instance_id", "platform", "guild_id"]);
    expect(withLaunchQuery("/games/dice", launch)).toBe("/games/dice?frame_id=f1&instance_id=i-1&platform=mobile&guild_id=9");
    expect(withLaunchQuery("/verify?shoe=a%2Bb#round-3", launch)).toBe(
      "/verify?shoe=a%2Bb&frame_id=f1&instance_id=i-1&platform=mobile&guild_id=9#round-3",
    );
    expect(withLaunchQuery("/x?platform=desktop", launch)).toBe("/x?platform=desktop&frame_id=f1&instance_id=i-1&guild_id=9");
    // outside Discord the address is left as it is
    expect(withLaunchQuery("/games/dice?a=1#h", launchQueryOf("?a=1"))).toBe("/games/dice?a=1#h");
  });
});
