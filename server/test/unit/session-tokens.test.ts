import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionTokens } from "../../src/core/auth/session";

const SECRET = "session-test-secret-session-test-secret-0123";
const claims = { playerId: "3f1c9a52-8d7e-4b1a-9c3e-2a6f0e1d4b7c", discordId: "100000000000000042", guest: false };

afterEach(() => vi.useRealTimers());

describe("session tokens", () => {
  it("answers a token it verified before from memory, but never past the token's expiry", async () => {
    const tokens = new SessionTokens(SECRET, 60);
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await tokens.verify(token)).toEqual(claims);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 61_000);
    await expect(tokens.verify(token)).rejects.toMatchObject({ status: 401, message: "Session expired" });
    // Refused again on the next call, now through the signature check.
    await expect(tokens.verify(token)).rejects.toMatchObject({ status: 401, message: "Session expired" });
  });

  it("refuses a token changed after signing, even when the original was verified and remembered", async () => {
    const tokens = new SessionTokens(SECRET, 60);
    const token = await tokens.issue(claims);
    await tokens.verify(token);
    const [header, payload, signature] = token.split(".");
    const forged = JSON.parse(Buffer.from(payload!, "base64url").toString());
    forged.sub = "00000000-0000-4000-8000-000000000000";
    const tampered = `${header}.${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${signature}`;
    await expect(tokens.verify(tampered)).rejects.toMatchObject({ status: 401, message: "Invalid session token" });
    await expect(new SessionTokens("another-secret-another-secret-another-0123", 60).verify(token)).rejects.toMatchObject({ status: 401 });
  });
});
