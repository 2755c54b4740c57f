import { afterEach, describe, expect, it } from "vitest";
import { fireEvent, render, screen } from "@testing-library/react";
import { avatarSource, DISCORD_CDN_PREFIX, discordAvatarUrl } from "@casino/common/avatar";
import { Avatar } from "../src/ui/Avatar";
import { useSession } from "../src/store/session";

/**
 * The one avatar: a Discord picture from the CDN, through the activity's URL mapping when framed by
 * Discord; the face generated from the player's name while it loads, when it fails and when there is
 * none; a question mark, and never the picture, for an anonymous player.
 */
const session = useSession.getState();
afterEach(() => useSession.setState(session, true));

const PICTURE = "https://cdn.discordapp.com/avatars/300000000000000001/0123abcd.png";

describe("the address of a Discord avatar", () => {
  it("is built on the CDN from the user id and hash, a GIF for an animated hash, none without a hash", () => {
    expect(discordAvatarUrl("300000000000000001", "0123abcd")).toBe(PICTURE);
    expect(discordAvatarUrl("300000000000000001", "a_77ff")).toBe("https://cdn.discordapp.com/avatars/300000000000000001/a_77ff.gif");
    expect(discordAvatarUrl("300000000000000001", null)).toBeNull();
    expect(discordAvatarUrl("300000000000000001", undefined)).toBeNull();
    expect(discordAvatarUrl("300000000000000001", "")).toBeNull();
  });

  it("goes through the mapped prefix inside Discord and straight to the CDN outside", () => {
    expect(DISCORD_CDN_PREFIX).toBe("/discord-cdn");
    expect(avatarSource(PICTURE, true)).toBe("/discord-cdn/avatars/300000000000000001/0123abcd.png");
    expect(avatarSource(`${PICTURE}?size=64`, true)).toBe("/discord-cdn/avatars/300000000000000001/0123abcd.png?size=64");
    expect(avatarSource(PICTURE, false)).toBe(PICTURE);
  });

  it("is no picture at all for anything but an avatar on Discord's CDN", () => {
    for (const url of [
      null,
      undefined,
      "",
      "https://example.com/avatars/1/2.png",
      "https://cdn.discordapp.com.evil.test/avatars/1/2.png",
      "http://cdn.discordapp.com/avatars/1/2.png",
      "https://cdn.discordapp.com/attachments/1/2.png",
      "https://cdn.discordapp.com/avatars/../attachments/2.png",
      "javascript:alert(1)",
    ]) {
      expect(avatarSource(url, false), String(url)).toBeNull();
      expect(avatarSource(url, true), String(url)).toBeNull();
    }
  });
});

describe("the Avatar", () => {
  const face = () => screen.getByTestId("avatar");
  const picture = () => face().querySelector("img");

  it("shows the picture through the mapping when framed by Discord, over the generated face named for the player", () => {
    useSession.setState({ embedded: true });
    render(<Avatar src={PICTURE} name="Alice" seed="Alice" />);
    expect(face().getAttribute("data-face")).toBe("picture");
    expect(picture()?.getAttribute("src")).toBe("/discord-cdn/avatars/300000000000000001/0123abcd.png");
    expect(picture()?.getAttribute("alt")).toBe("");
    expect(screen.getByRole("img", { name: "Alice" }).tagName.toLowerCase()).toBe("svg");
  });

  it("loads the picture straight from the CDN outside Discord", () => {
    useSession.setState({ embedded: false });
    render(<Avatar src={PICTURE} name="Alice" seed="Alice" />);
    expect(picture()?.getAttribute("src")).toBe(PICTURE);
  });

  it("falls back to the generated face when the picture fails, and tries a new picture afresh", () => {
    useSession.setState({ embedded: true });
    const { rerender } = render(<Avatar src={PICTURE} name="Alice" seed="Alice" />);
    fireEvent.error(picture()!);
    expect(face().getAttribute("data-face")).toBe("generated");
    expect(picture()).toBeNull();
    expect(face().querySelector("svg")).not.toBeNull();
    rerender(<Avatar src={PICTURE.replace("0123abcd", "4567ef01")} name="Alice" seed="Alice" />);
    expect(face().getAttribute("data-face")).toBe("picture");
  });

  it("generates the same face for the same name and another for another name, with no initials", () => {
    const svgOf = (seed: string) => {
      const { container, unmount } = render(<Avatar src={null} name={seed} seed={seed} />);
      const svg = (container.querySelector("svg")?.outerHTML ?? "").replace(/ (id|mask)="[^"]*"|url\(#[^)]*\)/g, "");
      expect(container.querySelector('[data-testid="avatar"]')?.getAttribute("data-face")).toBe("generated");
      expect(container.textContent).toBe("");
      unmount();
      return svg;
    };
    const alice = svgOf("Alice");
    expect(alice).toContain("<svg");
    expect(svgOf("Alice")).toBe(alice);
    expect(svgOf("Guest1234")).not.toBe(alice);
  });

  it("colours faces with two different inks each, in many pairs: members of one call seldom share their colours", () => {
    const inksOf = (seed: string) => {
      const { container, unmount } = render(<Avatar src={null} name={seed} seed={seed} />);
      const fills = [...container.querySelectorAll("svg [fill]")].map((e) => e.getAttribute("fill")!).filter((f) => f.startsWith("#"));
      unmount();
      // The ground (the first shape) and the head (the next): the face's features are drawn in black or white.
      return fills.filter((f) => f !== "#000000" && f !== "#FFFFFF" && f !== "#ffffff").slice(0, 2);
    };
    const pairs = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const [ground, head] = inksOf(`seed-${i.toString(36)}`);
      expect(ground).not.toBe(head);
      pairs.set(`${ground}/${head}`, (pairs.get(`${ground}/${head}`) ?? 0) + 1);
    }
    // Ten inks make 90 ordered pairs; none holds more than a small share of 300 faces.
    expect(pairs.size).toBeGreaterThanOrEqual(75);
    expect(Math.max(...pairs.values())).toBeLessThan(16);
  });

  it("draws a face from the name for a member sent without a seed (an answer of the spec's shapes)", () => {
    render(<Avatar src={null} name="Player 7" seed={undefined} />);
    expect(face().getAttribute("data-face")).toBe("generated");
    expect(face().querySelector("svg")).not.toBeNull();
  });

  it("never shows an anonymous player's picture, nor a face that would tell them apart", () => {
    useSession.setState({ embedded: true });
    render(<Avatar src={PICTURE} name="Anonymous" seed={null} />);
    expect(face().getAttribute("data-face")).toBe("hidden");
    expect(picture()).toBeNull();
    expect(face().querySelector("svg")).toBeNull();
    expect(screen.getByRole("img", { name: "Anonymous" }).textContent).toBe("?");
  });

  it("shows no picture for an address off Discord's CDN", () => {
    render(<Avatar src="https://tracker.example/avatars/1.png" name="Bob" seed="Bob" />);
    expect(picture()).toBeNull();
    expect(face().getAttribute("data-face")).toBe("generated");
  });
});
