import { describe, expect, it } from "vitest";
import type { Frame, Page } from "playwright-core";
import { acceptTerms } from "./fake-discord-host";
import { caseOf, playFirstRound } from "./games-cases";
import { ARTIFACTS, DESKTOP, PHONE } from "./support";
import { setupBrowserApp } from "./browser-app";

/**
 * The chance game tables played inside the fake Discord host: a Discord player signs in through the
 * fake OAuth server, accepts the terms, and plays a round in the activity's frame with the same drivers
 * and the same checks as standalone (games/<game>.ts): the outcome and balance the frame shows are the
 * server's (the round in the player's history, `GET /api/player/:id`). Dice is one step; blackjack and
 * mines are played to the end of their rounds.
 */
const { server: t, browser, host } = setupBrowserApp({ discordHost: true });

/**
 * A Discord player in the host page, signed in and past the terms: the activity's frame, and the session
 * the frame received from the code exchange (`POST /api/token`).
 */
async function openInDiscord(player: string, viewport: { width: number; height: number }) {
  const page: Page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const token = page.waitForResponse((r) => r.url().endsWith("/api/token") && r.request().method() === "POST", { timeout: 30_000 });
  await page.goto(host.url(`${t.baseUrl}/`, { players: [player] }));
  const body = (await (await token).json()) as { session_token: string; player: { id: string; discordId: string | null } };
  await acceptTerms(page.frameLocator("iframe").first());
  const frame: Frame | null = await (await page.$("iframe"))!.contentFrame();
  expect(frame).not.toBeNull();
  await frame!.getByTestId("lobby-heading").waitFor({ timeout: 20_000 });
  return {
    page,
    frame: frame!,
    session: { playerId: body.player.id, token: body.session_token },
    discordId: body.player.discordId,
    errors,
  };
}

describe("chance games inside the Discord host", () => {
  it.each([
    { game: "dice", discord: "200000000000000001:Dana", viewport: DESKTOP },
    { game: "blackjack", discord: "200000000000000002:Blake", viewport: DESKTOP },
    { game: "mines", discord: "200000000000000003:Mina", viewport: PHONE },
  ])(
    "$game: a Discord player plays a round in the activity and sees the server's outcome and balance",
    { timeout: 120_000 },
    async ({ game, discord, viewport }) => {
      const { page, frame, session, discordId, errors } = await openInDiscord(discord, viewport);
      try {
        expect(discordId).toBe(discord.split(":")[0]);
        const round = await playFirstRound(frame, caseOf(game), t.baseUrl, session);
        expect(round.gameType).toBe(game);
        await page.screenshot({ path: `${ARTIFACTS}/games-discord-${game}-${viewport.width}.png` });
        expect(errors, "page errors").toEqual([]);
      } finally {
        await page.close();
      }
      await t.expectLedgerInvariant();
    },
  );
});
