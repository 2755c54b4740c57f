import type { DiscordSDK } from "@discord/embedded-app-sdk";

/**
 * The Embedded App SDK once start-up inside Discord succeeded, for the features that talk to Discord
 * later (shared rooms, invites). A module of its own, without the SDK's code: reading it outside Discord
 * (where it stays null) loads nothing.
 */
let sdk: DiscordSDK | null = null;

export const discordSdk = (): DiscordSDK | null => sdk;

/** Called by the Discord start-up once the SDK is authenticated. */
export function adoptDiscordSdk(instance: DiscordSDK): void {
  sdk = instance;
}
