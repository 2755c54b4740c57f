import type { Log } from "../platform/log";
import type { EntityManager } from "typeorm";
import { CARD_GAME_IDS, DICE_GAME_IDS } from "@casino/common";
import { sqlPrepared } from "../platform/db/sql";
import type { Database } from "../platform/db/database";
import type { PlayerEvents } from "../core/events/player-events";
import { IdTail, TailSince, gapParams, sinceAfter, tailBound } from "../core/events/id-tail";
import { DrainLoop } from "../core/events/drain-loop";
import { PROGRESS_OF_TAG } from "./tags";

interface SessionRow {
  id: number;
  playerId: string;
  gameType: string;
  result: string;
}

interface BalanceRow {
  id: number;
  playerId: string;
  balanceAfter: number;
}

interface Counters {
  games: number;
  cardGames: number;
  diceGames: number;
  currentWinStreak: number;
  bestWinStreak: number;
  peakBalance: number;
  lastSessionSeq: number;
}

const BATCH = 1000;
const GAP_TTL_MS = 60_000;
const CURSORS = { sessions: "progress:sessions", ledger: "progress:ledger" } as const;
/**
 * The consumer's reads: each tail's next rows after its position, no older than its `TailSince` bound
 * (`$3`; until its first row, a day before the row at its position), and the ids it still waits for, no
 * older than a day before the row below the lowest of them: the last monthly partitions only.
 */
export const ROUNDS_TAIL = `SELECT seq AS id, player_id, game_type, result, created_at FROM game_sessions
  WHERE seq > $1 AND created_at >= ${tailBound("game_sessions", "seq", "$1::bigint", "$3::timestamptz")} ORDER BY seq LIMIT $2`;
export const ROUNDS_GAPS = `SELECT seq AS id, player_id, game_type, result FROM game_sessions
  WHERE seq = ANY($1::bigint[]) AND created_at >= ${sinceAfter("game_sessions", "seq", "$2::bigint")}`;
export const BALANCES_TAIL = `SELECT id, player_id, balance_after, created_at FROM ledger_entries
  WHERE id > $1 AND created_at >= ${tailBound("ledger_entries", "id", "$1::bigint", "$3::timestamptz")} ORDER BY id LIMIT $2`;
export const BALANCES_GAPS = `SELECT id, player_id, balance_after FROM ledger_entries
  WHERE id = ANY($1::bigint[]) AND created_at >= ${sinceAfter("ledger_entries", "id", "$2::bigint")}`;

const cardGames: ReadonlySet<string> = new Set(CARD_GAME_IDS);
const diceGames: ReadonlySet<string> = new Set(DICE_GAME_IDS);

/**
 * Progress toward tags, kept as counters per player and updated incrementally: a consumer reads
 * finished rounds (`game_sessions` by its commit-ordered `seq`) and ledger entries (for the peak
 * balance) after they commit, and applies them in one transaction that also unlocks every tag whose
 * criterion is now met. The player hears of each unlock as a notice on their event channel.
 *
 * Each round counts once: a player's rounds are applied in `seq` order and only above the player's
 * `last_session_seq`, under the row lock of their counters, so repeats (a restart, another process)
 * change nothing. Reads never count plays and never write.
 */
export class Progress {
  private readonly sessions: IdTail<SessionRow>;
  private readonly balances: IdTail<BalanceRow>;
  /** The tails' bounds on `created_at` (the tables are partitioned by month). */
  private readonly sessionsSince = new TailSince();
  private readonly balancesSince = new TailSince();
  private readonly loop: DrainLoop;
  private loaded = false;
  private savedPositions = "";

  constructor(
    private readonly db: Database,
    private readonly events: PlayerEvents,
    log: Log,
  ) {
    this.sessions = new IdTail<SessionRow>(
      (after, limit) =>
        this.db
          .run((em) => sqlPrepared(em, ROUNDS_TAIL, [after, limit, this.sessionsSince.since]))
          .then((r) => {
            this.sessionsSince.saw(r.map((row) => new Date(row.created_at as string).getTime()));
            return r.map(sessionRow);
          }),
      (ids) => this.db.run((em) => sqlPrepared(em, ROUNDS_GAPS, gapParams(ids))).then((r) => r.map(sessionRow)),
      { batch: BATCH, gapTtlMs: GAP_TTL_MS },
    );
    this.balances = new IdTail<BalanceRow>(
      (after, limit) =>
        this.db
          .run((em) => sqlPrepared(em, BALANCES_TAIL, [after, limit, this.balancesSince.since]))
          .then((r) => {
            this.balancesSince.saw(r.map((row) => new Date(row.created_at as string).getTime()));
            return r.map(balanceRow);
          }),
      (ids) => this.db.run((em) => sqlPrepared(em, BALANCES_GAPS, gapParams(ids))).then((r) => r.map(balanceRow)),
      { batch: BATCH, gapTtlMs: GAP_TTL_MS },
    );
    // Progress is told on the room, not read back at once: its drains may wait longer under load.
    this.loop = new DrainLoop("progress consumer", () => this.drain(), 1_000, log, 100);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** The ledger's commit hook: read the new rounds and entries now. */
  readonly onCommitted = (): void => this.loop.nudge();

  /** Waits until everything committed so far on this process is counted. */
  catchUp(): Promise<void> {
    return this.loop.catchUp();
  }

  private async drain(): Promise<void> {
    if (!this.loaded) {
      const rows = await this.db.run((em) =>
        sqlPrepared(em, `SELECT name, position FROM consumer_cursors WHERE name = ANY($1::text[])`, [Object.values(CURSORS)]),
      );
      const at = (name: string) => Number(rows.find((r) => r.name === name)?.position ?? 0);
      this.sessions.reset(at(CURSORS.sessions));
      this.balances.reset(at(CURSORS.ledger));
      this.loaded = true;
    }
    for (;;) {
      const [sessions, balances] = [await this.sessions.next(), await this.balances.next()];
      const hasRows = sessions.rows.length > 0 || balances.rows.length > 0;
      // Positions of what was applied before this batch: stored with it, so they never run ahead.
      const positions = `${this.sessions.safePosition} ${this.balances.safePosition}`;
      if (hasRows || positions !== this.savedPositions) {
        const unlocked = await this.db.transaction(async (em) => {
          const earned = hasRows ? await this.apply(em, sessions.rows, balances.rows) : [];
          await this.savePositions(em);
          return earned;
        });
        this.savedPositions = positions;
        for (const { playerId, name } of unlocked) {
          this.events.publish(playerId, { type: "notice", title: "Tag Unlocked!", description: `You earned the ${name} tag.` });
        }
      }
      sessions.ack();
      balances.ack();
      if (!sessions.more && !balances.more) return;
    }
  }

  /** One transaction: counters, play counts, unlocks, and the consumer positions. */
  private async apply(em: EntityManager, sessions: SessionRow[], balances: BalanceRow[]): Promise<{ playerId: string; name: string }[]> {
    const players = [...new Set([...sessions.map((s) => s.playerId), ...balances.map((b) => b.playerId)])].sort();
    let unlocked: { playerId: string; name: string }[] = [];
    if (players.length > 0) {
      await sqlPrepared(em, `INSERT INTO player_progress (player_id) SELECT unnest($1::uuid[]) ON CONFLICT (player_id) DO NOTHING`, [
        players,
      ]);
      const rows = await sqlPrepared(em, `SELECT * FROM player_progress WHERE player_id = ANY($1::uuid[]) ORDER BY player_id FOR UPDATE`, [
        players,
      ]);
      const counters = new Map(rows.map((r) => [r.player_id as string, countersOf(r)]));
      const perGame = new Map<string, number>();
      const perPlayerGame = new Map<string, number>();

      for (const s of sessions) {
        const c = counters.get(s.playerId)!;
        if (s.id <= c.lastSessionSeq) continue;
        c.lastSessionSeq = s.id;
        c.games++;
        if (cardGames.has(s.gameType)) c.cardGames++;
        if (diceGames.has(s.gameType)) c.diceGames++;
        c.currentWinStreak = s.result === "win" ? c.currentWinStreak + 1 : 0;
        c.bestWinStreak = Math.max(c.bestWinStreak, c.currentWinStreak);
        perGame.set(s.gameType, (perGame.get(s.gameType) ?? 0) + 1);
        const key = `${s.playerId} ${s.gameType}`;
        perPlayerGame.set(key, (perPlayerGame.get(key) ?? 0) + 1);
      }
      for (const b of balances) {
        const c = counters.get(b.playerId)!;
        c.peakBalance = Math.max(c.peakBalance, b.balanceAfter);
      }

      const list = players.map((id) => [id, counters.get(id)!] as const);
      await sqlPrepared(
        em,
        `UPDATE player_progress pp
            SET games = v.games, card_games = v.card_games, dice_games = v.dice_games, current_win_streak = v.current,
                best_win_streak = v.best, peak_balance = v.peak, last_session_seq = v.last, updated_at = now()
           FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::int[], $6::int[], $7::bigint[], $8::bigint[])
                AS v(player_id, games, card_games, dice_games, current, best, peak, last)
          WHERE pp.player_id = v.player_id`,
        [
          list.map(([id]) => id),
          list.map(([, c]) => c.games),
          list.map(([, c]) => c.cardGames),
          list.map(([, c]) => c.diceGames),
          list.map(([, c]) => c.currentWinStreak),
          list.map(([, c]) => c.bestWinStreak),
          list.map(([, c]) => c.peakBalance),
          list.map(([, c]) => c.lastSessionSeq),
        ],
      );
      if (perPlayerGame.size > 0) {
        const keys = [...perPlayerGame.keys()].sort();
        await sqlPrepared(
          em,
          `INSERT INTO player_game_counts (player_id, game_type, plays)
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::bigint[])
           ON CONFLICT (player_id, game_type) DO UPDATE SET plays = player_game_counts.plays + EXCLUDED.plays`,
          [keys.map((k) => k.split(" ")[0]), keys.map((k) => k.split(" ")[1]), keys.map((k) => perPlayerGame.get(k))],
        );
        const games = [...perGame.keys()].sort();
        await sqlPrepared(
          em,
          `INSERT INTO game_play_counts (game_type, plays) SELECT * FROM unnest($1::text[], $2::bigint[])
           ON CONFLICT (game_type) DO UPDATE SET plays = game_play_counts.plays + EXCLUDED.plays`,
          [games, games.map((g) => perGame.get(g))],
        );
      }
      unlocked = await this.unlock(em, players);
    }
    return unlocked;
  }

  private async savePositions(em: EntityManager): Promise<void> {
    await sqlPrepared(
      em,
      `INSERT INTO consumer_cursors (name, position) VALUES ($1, $2), ($3, $4)
       ON CONFLICT (name) DO UPDATE SET position = GREATEST(consumer_cursors.position, EXCLUDED.position)`,
      [CURSORS.sessions, this.sessions.safePosition, CURSORS.ledger, this.balances.safePosition],
    );
  }

  /** Unlocks, in this transaction, every tag of these players whose criterion their counters now meet. */
  private async unlock(em: EntityManager, players: string[]): Promise<{ playerId: string; name: string }[]> {
    const rows = await sqlPrepared(
      em,
      `WITH earned AS (
         INSERT INTO player_tags (player_id, tag_id, progress, unlocked, unlocked_at)
         SELECT pp.player_id, t.id, LEAST(${PROGRESS_OF_TAG("pp")}, 2147483647), true, now()
           FROM player_progress pp
           JOIN players p ON p.id = pp.player_id
           JOIN tags t ON t.custom_for_discord_id IS NULL OR t.custom_for_discord_id = p.discord_id
          WHERE pp.player_id = ANY($1::uuid[]) AND ${PROGRESS_OF_TAG("pp")} >= t.objective_criteria
          ORDER BY pp.player_id, t.id
         ON CONFLICT (player_id, tag_id) DO UPDATE
           SET unlocked = true, unlocked_at = COALESCE(player_tags.unlocked_at, now()), progress = GREATEST(player_tags.progress, EXCLUDED.progress)
           WHERE NOT player_tags.unlocked
         RETURNING player_id, tag_id
       )
       SELECT e.player_id, t.name FROM earned e JOIN tags t ON t.id = e.tag_id ORDER BY t.sort_order, t.id`,
      [players],
    );
    return rows.map((r) => ({ playerId: r.player_id as string, name: r.name as string }));
  }
}

const sessionRow = (r: Record<string, unknown>): SessionRow => ({
  id: Number(r.id),
  playerId: r.player_id as string,
  gameType: r.game_type as string,
  result: r.result as string,
});
const balanceRow = (r: Record<string, unknown>): BalanceRow => ({
  id: Number(r.id),
  playerId: r.player_id as string,
  balanceAfter: Number(r.balance_after),
});
const countersOf = (r: Record<string, unknown>): Counters => ({
  games: Number(r.games),
  cardGames: Number(r.card_games),
  diceGames: Number(r.dice_games),
  currentWinStreak: Number(r.current_win_streak),
  bestWinStreak: Number(r.best_win_streak),
  peakBalance: Number(r.peak_balance),
  lastSessionSeq: Number(r.last_session_seq),
});
