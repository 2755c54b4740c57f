/** Every business constant of the product specification (section 9), in one place. */
export const STARTING_BALANCE = 1000;
export const LEADERBOARD_PAGE_SIZE = 25;
export const LEADERBOARD_REFRESH_MS = 5_000;
export const GAME_STATS_REFRESH_MS = 30_000;
export const MOST_PLAYED_SHOWN = 3;
/** The daily bonus wheel's game id: its spins are verified like a game's rounds. */
export const DAILY_SPIN = "daily-spin";
export const DAILY_SPIN_COOLDOWN_MS = 24 * 60 * 60 * 1000;
export const SPIN_ANIMATION_MS = 4_000;
export const SPIN_EXTRA_TURNS = 5;
/** The 12 segments of the daily bonus wheel, in wheel order. */
export const WHEEL_PRIZES = [50, 100, 200, 50, 300, 150, 100, 50, 500, 200, 100, 250] as const;
export const REMINDER_CHECK_INTERVAL_MS = 60_000;
export const REMINDER_TOAST_MS = 10_000;
export const SUGGESTION_MAX_LENGTH = 2000;
export const PAGINATION_ALL_PAGES_THRESHOLD = 7;
export const DOTS_REWARD = 5;
export const DOT_BATTLE_COINS_PER_KILL = 1;
/**
 * Skill rounds (Dot Battle and Connect the Dots together) a player may start per UTC day; counted in
 * the player's dotsGamesPlayedToday / dotsLastPlayedDate when the round starts.
 */
export const SKILL_ROUNDS_PER_DAY = 10;
export const TERMS_VERSION = "2025-10-30";
export const MINIMUM_AGE = 13;
export const CLICK_SOUND_VOLUME = 0.3;
export const RESULT_SOUND_VOLUME = 0.5;
export const BALANCE_CHANGE_INDICATOR_MS = 2_000;
export const WIN_TOAST_MS = 3_000;
export const LOSE_TOAST_MS = 2_000;
export const MAX_TOASTS = 1;
export const DEFAULT_THEME_MODE = "dark";
export const DEFAULT_THEME_COLOR = "200 60% 55%";
/**
 * The OAuth2 scopes the activity asks for: the spec's identify and guilds, and rpc.activities.write for
 * the rich presence ("Playing Blackjack" on the player's profile), added deliberately.
 */
export const DISCORD_SCOPES = ["identify", "guilds", "rpc.activities.write"] as const;
export const GUEST_ID_PREFIX = "guest-";
export const GUEST_NUMBER_LIMIT = 10_000;
export const DISCORD_CDN = "https://cdn.discordapp.com";

export const isGuestId = (discordId: string): boolean => discordId.startsWith(GUEST_ID_PREFIX);

/** The name everyone else sees for a player in anonymous mode (boards, tables, the crash room). */
export const ANONYMOUS_NAME = "Anonymous";

/**
 * How the `playerId` of a board entry masked as anonymous begins: such an entry never carries the
 * player's real id, only an opaque stand-in (this prefix and 22 characters) that names the player on
 * one board, scope and UTC day only, so it cannot be matched with their id on any other surface.
 */
export const ANONYMOUS_ID_PREFIX = "anon-";
