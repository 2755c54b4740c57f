/**
 * The leaderboard answers of spec section 3. The server side of these calls is built separately; the
 * shapes here are the spec's, read defensively (a list may come bare or as `{ entries }`).
 */
export interface BoardPlayer {
  playerId: string;
  rank: number;
  username: string;
  avatarUrl: string | null;
  anonymousMode: boolean;
  discordId: string;
  activeTag?: { name: string } | null;
}

export interface BalanceEntry extends BoardPlayer {
  balance: number;
}

export interface BalanceBoard {
  entries: BalanceEntry[];
  total: number;
}

export interface SpeedEntry extends BoardPlayer {
  completionTimeMs: number;
}

export interface KillsEntry extends BoardPlayer {
  kills: number;
}

export const entriesOf = <T>(body: T[] | { entries?: T[] } | null): T[] => (Array.isArray(body) ? body : (body?.entries ?? []));
