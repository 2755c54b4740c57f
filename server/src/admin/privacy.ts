import type { EntityManager } from "typeorm";
import { DEFAULT_THEME_COLOR, DEFAULT_THEME_MODE, ERASED_ID_PREFIX, ERASED_USERNAME, requireEngine } from "@casino/common";
import { sqlRows } from "../platform/db/sql";
import { actionsOn, recordAction } from "./admin-actions";
import { announceAccountChange, rebuildBoards, type AdminContext } from "./context";
import { resolvePlayer } from "./player-lookup";

/**
 * What the privacy policy promises a player ("ask to see, correct or delete your data"; a child under
 * the minimum age: "we will delete their data"), as operator commands:
 *
 * - **Export** (`exportPlayer`): everything stored about the player, as one JSON document, in the words
 *   of the policy's "Information We Collect": the Discord identity and guilds, the balance and its whole
 *   ledger, every round with its seeds, daily spins, tags, records, settings, suggestions, and what
 *   operators did to the account. Secrets the player may not see yet stay hidden: the active and next
 *   server seeds appear as their hashes only, an open round as the player's own view of it.
 * - **Erase** (`erasePlayer`): the personal fields are removed and what served only the person is
 *   deleted; what the coin ledger and the fairness of past rounds need stays, under the player's random
 *   id, with nothing left that names the person (see ERASED and KEPT below).
 */
export const EXPORT_FORMAT = "casino-player-export/1";

/** Rows deleted by an erasure: they served only the person. */
export const ERASED_TABLES = [
  "player_guilds",
  "activity_instance_members",
  "tonight_joins",
  "tonight_race_members",
  "suggestions",
  "processed_requests",
  "player_tags",
  "player_progress",
  "player_game_counts",
] as const;

/**
 * Rows kept, under the anonymised player: the ledger (each balance must stay the sum of its entries, and
 * the audit must still add up) and what makes past rounds verifiable and settled exactly once.
 */
export const KEPT_TABLES = [
  "ledger_entries",
  "game_sessions",
  "game_plays_legacy",
  "fairness_seeds",
  "next_server_seeds",
  "open_rounds",
  "crash_bets",
  "table_bets",
  "holdem_seats",
  "holdem_hand_players",
  "skill_rounds",
  "dots_speed_records",
  "dot_battle_scores",
  "admin_actions",
] as const;

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

/** Everything stored about the player, as a JSON-ready object; the export itself is recorded. */
export async function exportPlayer(ctx: AdminContext, ref: string, reason: string): Promise<Record<string, unknown>> {
  return ctx.db.transaction(async (em) => {
    await sqlRows(em, `SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`);
    const { id } = await resolvePlayer(em, ref);
    const q = (text: string) => sqlRows<Record<string, unknown>>(em, text, [id]);
    const [p] = await q(`SELECT p.*, t.name AS active_tag FROM players p LEFT JOIN tags t ON t.id = p.active_tag_id WHERE p.id = $1`);
    const exported = {
      format: EXPORT_FORMAT,
      exportedAt: new Date().toISOString(),
      player: {
        id: p!.id,
        discordId: p!.discord_id,
        username: p!.username,
        avatarUrl: p!.avatar_url,
        status: p!.status,
        balance: Number(p!.balance),
        createdAt: iso(p!.created_at),
        lastSeenAt: iso(p!.last_seen_at),
        archivedAt: iso(p!.archived_at),
        settings: {
          anonymousMode: p!.anonymous_mode,
          themeMode: p!.theme_mode,
          themeModeChosen: p!.theme_mode_chosen,
          themeColor: p!.theme_color,
          soundOn: p!.sound_on,
          soundVolume: p!.sound_volume,
          animationsOn: p!.animations_on,
          resultToastsOn: p!.result_toasts_on,
          reactionsOn: p!.reactions_on,
          dailySpinReminder: p!.daily_spin_reminder,
          activeTag: p!.active_tag ?? null,
          acceptedTermsVersion: p!.tos_accepted_version,
        },
        lastDailySpin: iso(p!.last_daily_spin),
        lastReminderSent: iso(p!.last_reminder_sent),
        skillRoundsToday: { count: p!.dots_games_played_today, day: p!.dots_last_played_date },
      },
      ledger: (
        await q(
          `SELECT id, created_at, delta, balance_after, reason, reference, request_id FROM ledger_entries WHERE player_id = $1 ORDER BY id`,
        )
      ).map((r) => ({
        id: Number(r.id),
        at: iso(r.created_at),
        delta: Number(r.delta),
        balanceAfter: Number(r.balance_after),
        reason: r.reason,
        reference: r.reference,
        requestId: r.request_id,
      })),
      rounds: (
        await q(
          `SELECT g.*, s.server_seed_hash, s.client_seed, CASE WHEN s.active THEN NULL ELSE s.server_seed END AS revealed_seed
             FROM game_sessions g LEFT JOIN fairness_seeds s ON s.id = g.seed_id WHERE g.player_id = $1 ORDER BY g.seq`,
        )
      ).map((r) => ({
        id: r.id,
        at: iso(r.created_at),
        game: r.game_type,
        amount: r.amount === null ? null : Number(r.amount),
        stake: Number(r.bet_amount),
        payout: Number(r.payout),
        result: r.result,
        requestId: r.request_id,
        params: r.params,
        actions: r.actions,
        outcome: r.outcome,
        fairness: r.seed_id
          ? { serverSeedHash: r.server_seed_hash, clientSeed: r.client_seed, nonce: r.nonce, serverSeed: r.revealed_seed }
          : null,
      })),
      openRound: await openRoundOf(em, id),
      seeds: {
        pairs: (
          await q(
            `SELECT server_seed_hash, client_seed, nonce, active, created_at, revealed_at, CASE WHEN active THEN NULL ELSE server_seed END AS revealed
               FROM fairness_seeds WHERE player_id = $1 ORDER BY created_at`,
          )
        ).map((r) => ({
          serverSeedHash: r.server_seed_hash,
          clientSeed: r.client_seed,
          nonce: r.nonce,
          active: r.active,
          createdAt: iso(r.created_at),
          revealedAt: iso(r.revealed_at),
          serverSeed: r.revealed,
        })),
        nextServerSeedHash: (await q(`SELECT server_seed_hash FROM next_server_seeds WHERE player_id = $1`))[0]?.server_seed_hash ?? null,
      },
      crashBets: (
        await q(
          `SELECT b.*, r.game_number FROM crash_bets b JOIN crash_rounds r ON r.id = b.round_id WHERE b.player_id = $1 ORDER BY b.created_at`,
        )
      ).map((r) => ({
        roundId: r.round_id,
        gameNumber: r.game_number,
        at: iso(r.created_at),
        amount: Number(r.amount),
        autoCashOut: r.auto_cash_out === null ? null : Number(r.auto_cash_out),
        status: r.status,
        cashedOutAt: r.cashed_out_at === null ? null : Number(r.cashed_out_at),
        payout: Number(r.payout),
        settledBy: r.settled_by,
      })),
      tableBets: (
        await q(
          `SELECT b.*, r.round, r.shoe_id, s.table_id FROM table_bets b JOIN table_rounds r ON r.id = b.round_id JOIN table_shoes s ON s.id = r.shoe_id
            WHERE b.player_id = $1 ORDER BY b.created_at`,
        )
      ).map((r) => ({
        table: r.table_id,
        shoeId: r.shoe_id,
        round: r.round,
        seat: r.seat,
        at: iso(r.created_at),
        amount: Number(r.amount),
        staked: Number(r.staked),
        status: r.status,
        payout: Number(r.payout),
      })),
      skillRounds: (
        await q(
          `SELECT id, game, status, started_at, submitted_at, kills, completion_ms, reward, refusal_code FROM skill_rounds WHERE player_id = $1 ORDER BY started_at`,
        )
      ).map((r) => ({
        id: r.id,
        game: r.game,
        status: r.status,
        startedAt: iso(r.started_at),
        submittedAt: iso(r.submitted_at),
        kills: r.kills,
        completionMs: r.completion_ms,
        reward: r.reward === null ? null : Number(r.reward),
        refusal: r.refusal_code,
      })),
      records: {
        connectTheDotsMs: (await q(`SELECT completion_time_ms, created_at FROM dots_speed_records WHERE player_id = $1 ORDER BY id`)).map(
          (r) => ({
            ms: r.completion_time_ms,
            at: iso(r.created_at),
          }),
        ),
        dotBattleKills: (await q(`SELECT kills, created_at FROM dot_battle_scores WHERE player_id = $1 ORDER BY id`)).map((r) => ({
          kills: r.kills,
          at: iso(r.created_at),
        })),
      },
      tags: (
        await q(
          `SELECT t.name, pt.progress, pt.unlocked, pt.unlocked_at FROM player_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.player_id = $1 ORDER BY t.sort_order`,
        )
      ).map((r) => ({ name: r.name, progress: r.progress, unlocked: r.unlocked, unlockedAt: iso(r.unlocked_at) })),
      progress:
        (await q(`SELECT * FROM player_progress WHERE player_id = $1`)).map((r) => ({
          games: r.games,
          cardGames: r.card_games,
          diceGames: r.dice_games,
          currentWinStreak: r.current_win_streak,
          bestWinStreak: r.best_win_streak,
          peakBalance: Number(r.peak_balance),
        }))[0] ?? null,
      gameCounts: (await q(`SELECT game_type, plays FROM player_game_counts WHERE player_id = $1 ORDER BY game_type`)).map((r) => ({
        game: r.game_type,
        plays: Number(r.plays),
      })),
      guilds: (await q(`SELECT guild_id, refreshed_at FROM player_guilds WHERE player_id = $1 ORDER BY guild_id`)).map((r) => ({
        guildId: r.guild_id,
        refreshedAt: iso(r.refreshed_at),
      })),
      activityInstances: (
        await q(
          `SELECT instance_id, guild_id, channel_id, verified, joined_at FROM activity_instance_members WHERE player_id = $1 ORDER BY joined_at`,
        )
      ).map((r) => ({
        instanceId: r.instance_id,
        guildId: r.guild_id,
        channelId: r.channel_id,
        verified: r.verified,
        joinedAt: iso(r.joined_at),
      })),
      tonightJoins: (
        await q(`SELECT instance_id, day::text AS day, joined_at FROM tonight_joins WHERE player_id = $1 ORDER BY joined_at`)
      ).map((r) => ({ instanceId: r.instance_id, day: r.day, joinedAt: iso(r.joined_at) })),
      races: (
        await q(
          `SELECT r.instance_id, r.minutes, r.winner_id = m.player_id AS won, m.joined_at, r.finished_at
             FROM tonight_race_members m JOIN tonight_races r ON r.id = m.race_id WHERE m.player_id = $1 ORDER BY m.joined_at`,
        )
      ).map((r) => ({
        instanceId: r.instance_id,
        minutes: r.minutes,
        won: r.won === true,
        joinedAt: iso(r.joined_at),
        finishedAt: iso(r.finished_at),
      })),
      suggestions: (await q(`SELECT id, created_at, text, status FROM suggestions WHERE player_id = $1 ORDER BY id`)).map((r) => ({
        id: Number(r.id),
        at: iso(r.created_at),
        text: r.text,
        status: r.status,
      })),
      operatorActions: (await actionsOn(em, id)).reverse(),
    };
    await recordAction(em, { operator: ctx.operator, action: "export", playerId: id, reason });
    return exported;
  });
}

/** The open round as the player sees it (the engine's public view: no undealt cards). */
async function openRoundOf(em: EntityManager, playerId: string) {
  const [r] = await sqlRows<Record<string, unknown>>(
    em,
    `SELECT id, game, amount, total_stake, total_payout, state, created_at FROM open_rounds WHERE player_id = $1`,
    [playerId],
  );
  if (!r) return null;
  return {
    id: r.id,
    game: r.game,
    amount: Number(r.amount),
    totalStake: Number(r.total_stake),
    totalPayout: Number(r.total_payout),
    startedAt: iso(r.created_at),
    view: requireEngine(r.game as string).view(r.state, false),
  };
}

export interface Erasure {
  playerId: string;
  /** False when the player had already been erased (nothing more was done). */
  erased: boolean;
  deleted: Partial<Record<(typeof ERASED_TABLES)[number], number>>;
  boards: { players: number; ms: number } | null;
}

/**
 * Erases a player: under the player's row lock (so no money request of theirs runs meanwhile), the rows
 * of ERASED_TABLES are deleted, a custom tag made for their Discord id is keyed to the erased id, and
 * the player's row keeps only what is not personal: id, balance, times and counters, the status
 * `erased`, the name ERASED_USERNAME and the Discord id replaced by ERASED_ID_PREFIX + id. The ledger is
 * untouched (entries carry amounts, reasons, game names and request ids, nothing personal), so every
 * balance is still the sum of its entries. Sessions are refused from then on; a Discord user signing in
 * again is a new player. Then the servers close the player's connections, the stored profile leaves
 * Redis and the boards are rebuilt without them.
 */
export async function erasePlayer(ctx: AdminContext, ref: string, reason: string, underMinimumAge: boolean): Promise<Erasure> {
  const result = await ctx.db.transaction(async (em) => {
    const { id } = await resolvePlayer(em, ref);
    const [row] = await sqlRows<{ status: string; discord_id: string }>(
      em,
      `SELECT status, discord_id FROM players WHERE id = $1 FOR NO KEY UPDATE`,
      [id],
    );
    if (row!.status === "erased") return { playerId: id, erased: false, deleted: {} };
    const deleted: Erasure["deleted"] = {};
    for (const table of ERASED_TABLES) {
      deleted[table] = (await sqlRows(em, `DELETE FROM ${table} WHERE player_id = $1 RETURNING 1`, [id])).length;
    }
    const erasedId = `${ERASED_ID_PREFIX}${id}`;
    await sqlRows(em, `UPDATE tags SET custom_for_discord_id = $2 WHERE custom_for_discord_id = $1`, [row!.discord_id, erasedId]);
    await sqlRows(
      em,
      `UPDATE players SET status = 'erased', discord_id = $2, username = $3, avatar_url = NULL, anonymous_mode = true, active_tag_id = NULL,
              theme_mode = $4, theme_color = $5, sound_on = true, sound_volume = 100, animations_on = true, daily_spin_reminder = false, last_reminder_sent = NULL, tos_accepted_version = NULL
        WHERE id = $1`,
      [id, erasedId, ERASED_USERNAME, DEFAULT_THEME_MODE, DEFAULT_THEME_COLOR],
    );
    await recordAction(em, {
      operator: ctx.operator,
      action: "erase",
      playerId: id,
      reason,
      details: { underMinimumAge, deleted },
    });
    return { playerId: id, erased: true, deleted };
  });
  if (!result.erased) return { ...result, boards: null };
  await announceAccountChange(ctx, result.playerId, "erased");
  await ctx.live?.leaderboards.forgetProfile(result.playerId);
  return { ...result, boards: await rebuildBoards(ctx) };
}
