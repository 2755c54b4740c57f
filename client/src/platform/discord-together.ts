import { discordSdk } from "./discord-sdk";

/**
 * The Embedded App SDK commands of playing together (SDK 2.5; each checked against its schema in
 * @discord/embedded-app-sdk): participants, rich presence, invites and share links. Every command is
 * optional to the product: a failure is logged and nothing else happens.
 */

/** A user connected to this activity instance (`GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS`). */
export interface Participant {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
  /** The guild nickname, when Discord gives it. */
  nickname?: string;
}

/**
 * The participants now and on every change: `getInstanceConnectedParticipants`, then
 * `ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE` (no extra scope). Returns the unsubscribe.
 */
export async function watchParticipants(onChange: (participants: Participant[]) => void): Promise<() => void> {
  const sdk = discordSdk();
  if (!sdk) return () => undefined;
  const listener = (event: { participants: Participant[] }) => onChange(event.participants);
  try {
    await sdk.subscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", listener);
    const { participants } = await sdk.commands.getInstanceConnectedParticipants();
    onChange(participants);
  } catch (error) {
    console.warn("participants unavailable", error);
  }
  return () => void sdk.unsubscribe("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", listener).catch(() => undefined);
}

/** What the rich presence says: the details line, the party size and when play began. */
export interface PresenceInput {
  details: string;
  state: string;
  partySize: number;
  startedAt: number;
}

/**
 * Discord documents SET_ACTIVITY as limited to 5 updates per 20 seconds: one every 4 s here, the latest
 * wins, an unchanged presence is not sent again.
 */
export const PRESENCE_MIN_INTERVAL_MS = 4_000;
const PARTY_MAX = 25;

let lastSent = "";
let lastAt = -Infinity;
let waiting: PresenceInput | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

export function updatePresence(input: PresenceInput): void {
  waiting = input;
  if (timer) return;
  const wait = Math.max(0, lastAt + PRESENCE_MIN_INTERVAL_MS - Date.now());
  timer = setTimeout(() => void sendPresence(), wait);
}

async function sendPresence(): Promise<void> {
  timer = null;
  const sdk = discordSdk();
  const input = waiting;
  waiting = null;
  if (!sdk || !input) return;
  const activity = {
    type: 0,
    details: input.details,
    state: input.state,
    timestamps: { start: input.startedAt },
    party: { id: sdk.instanceId, size: [Math.max(1, input.partySize), Math.max(PARTY_MAX, input.partySize)] },
  };
  const key = JSON.stringify(activity);
  if (key === lastSent) return;
  lastSent = key;
  lastAt = Date.now();
  try {
    await sdk.commands.setActivity({ activity });
  } catch (error) {
    console.warn("rich presence not updated", error);
  }
}

/** The invite dialog exists only in a guild channel: in DMs Discord answers INVALID_CHANNEL. */
export const canInvite = (): boolean => discordSdk()?.guildId != null;

export async function openInvite(): Promise<void> {
  try {
    await discordSdk()?.commands.openInviteDialog();
  } catch (error) {
    console.warn("invite dialog not opened", error);
  }
}

/** Offers to share a round; recipients who launch from the link open that round (`custom_id`). */
export async function shareLink(message: string, customId: string): Promise<void> {
  try {
    await discordSdk()?.commands.shareLink({ message: message.slice(0, 1000), custom_id: customId });
  } catch (error) {
    console.warn("share link not opened", error);
  }
}

/** The `custom_id` the activity was launched with (from a share link), read once at start-up. */
export const launchCustomId = (): string | null => discordSdk()?.customId ?? null;
