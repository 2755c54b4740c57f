import type { EntityManager } from "typeorm";
import { ANONYMOUS_NAME, type RaceMinutes, type RacePhase, type RaceRow, type RaceView } from "@casino/common";
import type { Clock } from "../platform/clock";
import type { RaceSettings } from "../platform/config";
import { constraintOf, isUniqueViolation, type Database } from "../platform/db/database";
import { sqlRows } from "../platform/db/sql";
import { loadProfiles, shownTo } from "../leaderboard/profiles";

/**
 * A race of an activity instance (docs/architecture/playing-together.md, "A race"). Everything about it
 * is in its `tonight_races` row and its `tonight_race_members`: the schedule on the server's clock
 * (`started_at`, `join_closes_at`, `ends_at`), the database times between which settled rounds count
 * (`counted_from`, written when the join window closes; `counted_until`, at the end), and once finished
 * the final order and the winner. Any process may carry out a step: each one is a conditional write, so
 * the first does it and the others find it done.
 */

/** One member's figures in a race. */
export interface RaceStanding {
  playerId: string;
  net: number;
  rounds: number;
}

export interface RaceRecord {
  id: string;
  instanceId: string;
  startedBy: string;
  minutes: RaceMinutes;
  startedAt: number;
  joinClosesAt: number;
  endsAt: number;
  counting: boolean;
  finishedAt: number | null;
  winnerId: string | null;
  standings: RaceStanding[] | null;
}

/** Why a start or a join is refused, in the words the player reads. */
export class RaceRefusal extends Error {}

/**
 * The database time from which a race's rounds count: the moment its join window closed, as the database
 * measures time from the race's creation (so a process that takes the step late counts from the right
 * moment), or now if that is earlier (a test's clock runs ahead of the database's).
 */
const COUNT_FROM = `LEAST(now(), r.created_at + (r.join_closes_at - r.started_at))`;

const RACE_COLUMNS = `r.id, r.instance_id, r.started_by, r.minutes, r.started_at, r.join_closes_at, r.ends_at,
  r.counted_from IS NOT NULL AS counting, r.finished_at, r.winner_id, r.standings`;

function recordOf(r: Record<string, unknown>): RaceRecord {
  const time = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).getTime());
  return {
    id: r.id as string,
    instanceId: r.instance_id as string,
    startedBy: r.started_by as string,
    minutes: Number(r.minutes) as RaceMinutes,
    startedAt: time(r.started_at)!,
    joinClosesAt: time(r.join_closes_at)!,
    endsAt: time(r.ends_at)!,
    counting: r.counting === true,
    finishedAt: time(r.finished_at),
    winnerId: (r.winner_id as string | null) ?? null,
    standings: (r.standings as RaceStanding[] | null) ?? null,
  };
}

/**
 * Starts a race of the instance, the starter in it. Refused while another race of the instance is not
 * finished: the partial unique index `uq_tonight_races_open` decides, whichever process asks.
 */
export async function startRace(
  db: Database,
  clock: Clock,
  settings: RaceSettings,
  instanceId: string,
  playerId: string,
  minutes: RaceMinutes,
): Promise<RaceRecord> {
  const now = clock.now();
  const joinClosesAt = now + settings.joinWindowMs;
  const endsAt = joinClosesAt + minutes * 60_000;
  try {
    const rows = await db.transaction(async (em) => {
      const created = await sqlRows(
        em,
        `INSERT INTO tonight_races AS r (instance_id, started_by, minutes, started_at, join_closes_at, ends_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${RACE_COLUMNS}`,
        [instanceId, playerId, minutes, new Date(now), new Date(joinClosesAt), new Date(endsAt)],
      );
      await sqlRows(em, `INSERT INTO tonight_race_members (race_id, player_id) VALUES ($1, $2)`, [created[0]!.id, playerId]);
      return created;
    });
    return recordOf(rows[0]!);
  } catch (error) {
    if (isUniqueViolation(error) && constraintOf(error) === "uq_tonight_races_open")
      throw new RaceRefusal("A race is already on in this activity: join it or wait for its end");
    throw error;
  }
}

/** The player joins the instance's race: only while its join window is open (on the server's clock). */
export async function joinRace(db: Database, clock: Clock, instanceId: string, playerId: string): Promise<void> {
  const joined = await db.run((em) =>
    sqlRows(
      em,
      `INSERT INTO tonight_race_members (race_id, player_id)
       SELECT id, $2 FROM tonight_races
        WHERE instance_id = $1 AND finished_at IS NULL AND counted_from IS NULL AND join_closes_at > $3
       ON CONFLICT (race_id, player_id) DO NOTHING RETURNING race_id`,
      [instanceId, playerId, new Date(clock.now())],
    ),
  );
  if (joined.length > 0) return;
  const race = await openRace(db, instanceId);
  if (!race) throw new RaceRefusal("No race is starting in this activity: start one");
  const member = await db.run((em) =>
    sqlRows(em, `SELECT 1 FROM tonight_race_members WHERE race_id = $1 AND player_id = $2`, [race.id, playerId]),
  );
  if (member.length > 0) throw new RaceRefusal("You are in this race already");
  throw new RaceRefusal("This race's join window has closed: join the next one");
}

/** The instance's race not finished yet, if any. */
export async function openRace(db: Database, instanceId: string): Promise<RaceRecord | null> {
  const rows = await db.run((em) =>
    sqlRows(em, `SELECT ${RACE_COLUMNS} FROM tonight_races r WHERE r.instance_id = $1 AND r.finished_at IS NULL`, [instanceId]),
  );
  return rows[0] ? recordOf(rows[0]) : null;
}

/** The race the instance shows: the one not finished, else the latest finished since `shownSince` (server clock). */
export async function shownRace(db: Database, instanceId: string, shownSince: number): Promise<RaceRecord | null> {
  const rows = await db.run((em) =>
    sqlRows(
      em,
      `SELECT ${RACE_COLUMNS} FROM tonight_races r
        WHERE r.instance_id = $1 AND (r.finished_at IS NULL OR r.ends_at >= $2)
        ORDER BY r.finished_at IS NULL DESC, r.ends_at DESC LIMIT 1`,
      [instanceId, new Date(shownSince)],
    ),
  );
  return rows[0] ? recordOf(rows[0]) : null;
}

export async function raceById(db: Database, raceId: string): Promise<RaceRecord | null> {
  const rows = await db.run((em) => sqlRows(em, `SELECT ${RACE_COLUMNS} FROM tonight_races r WHERE r.id = $1`, [raceId]));
  return rows[0] ? recordOf(rows[0]) : null;
}

/** Closes the join window: rounds settled from now on count. Done once; false when it was done already. */
export async function closeJoinWindow(db: Database, raceId: string): Promise<boolean> {
  const rows = await db.run((em) =>
    sqlRows(
      em,
      `UPDATE tonight_races r SET counted_from = ${COUNT_FROM}
        WHERE r.id = $1 AND r.counted_from IS NULL AND r.finished_at IS NULL RETURNING r.id`,
      [raceId],
    ),
  );
  return rows.length > 0;
}

/**
 * Each member's net and rounds among the rounds settled (their `game_sessions` records, the Tonight
 * board's rounds) from `counted_from` until `counted_until` (still open while the race runs), in the
 * race's order: members who played first, best net first, then more rounds, then the earlier join.
 */
async function standingsOf(em: EntityManager, raceId: string): Promise<RaceStanding[]> {
  const rows = await sqlRows(
    em,
    `SELECT m.player_id, COALESCE(sum(g.payout - g.bet_amount), 0) AS net, count(g.player_id) AS rounds
       FROM tonight_races r
       JOIN tonight_race_members m ON m.race_id = r.id
       LEFT JOIN game_sessions g ON g.player_id = m.player_id AND r.counted_from IS NOT NULL
            AND g.created_at >= r.counted_from AND g.created_at < COALESCE(r.counted_until, 'infinity')
      WHERE r.id = $1
      GROUP BY m.player_id, m.joined_at
      ORDER BY count(g.player_id) > 0 DESC, COALESCE(sum(g.payout - g.bet_amount), 0) DESC, count(g.player_id) DESC, m.joined_at, m.player_id`,
    [raceId],
  );
  return rows.map((r) => ({ playerId: r.player_id as string, net: Number(r.net), rounds: Number(r.rounds) }));
}

/** The standings of a race: the stored final order once finished, else read now from the rounds. */
export async function raceStandings(db: Database, race: RaceRecord): Promise<RaceStanding[]> {
  if (race.standings) return race.standings;
  return db.run((em) => standingsOf(em, race.id));
}

/**
 * Ends the race, in one transaction under the row's lock: the counting stops at the end (or now, if
 * earlier on the database's clock), the final order is stored, and the winner (the first of it, if they
 * played a round) is given the race tag, once: a tag once earned stays earned. Returns the winner's
 * newly unlocked tag name (null if none, or if the tag was theirs already), or false when the race was
 * finished already (by another process).
 */
export async function finishRace(
  db: Database,
  clock: Clock,
  raceId: string,
): Promise<false | { winnerId: string | null; unlocked: string | null }> {
  return db.transaction(async (em) => {
    const locked = await sqlRows(em, `SELECT finished_at FROM tonight_races WHERE id = $1 FOR UPDATE`, [raceId]);
    if (!locked[0] || locked[0].finished_at !== null) return false;
    await sqlRows(em, `UPDATE tonight_races r SET counted_from = COALESCE(r.counted_from, ${COUNT_FROM}) WHERE r.id = $1`, [raceId]);
    await sqlRows(
      em,
      `UPDATE tonight_races r SET counted_until = LEAST(now(), r.counted_from + (r.ends_at - r.join_closes_at)) WHERE r.id = $1`,
      [raceId],
    );
    const standings = await standingsOf(em, raceId);
    const winner = standings[0] && standings[0].rounds > 0 ? standings[0].playerId : null;
    await sqlRows(em, `UPDATE tonight_races SET finished_at = $2, winner_id = $3, standings = $4::jsonb WHERE id = $1`, [
      raceId,
      new Date(clock.now()),
      winner,
      JSON.stringify(standings),
    ]);
    if (!winner) return { winnerId: null, unlocked: null };
    const awarded = await sqlRows(
      em,
      `INSERT INTO player_tags (player_id, tag_id, progress, unlocked, unlocked_at)
       SELECT $1, t.id, 1, true, now() FROM tags t WHERE t.objective_type = 'race_win'
       ON CONFLICT (player_id, tag_id) DO UPDATE
         SET unlocked = true, unlocked_at = COALESCE(player_tags.unlocked_at, now()), progress = GREATEST(player_tags.progress, 1)
         WHERE NOT player_tags.unlocked
       RETURNING tag_id`,
      [winner],
    );
    const name = awarded[0]
      ? ((await sqlRows(em, `SELECT name FROM tags WHERE id = $1`, [awarded[0].tag_id]))[0]?.name as string | undefined)
      : undefined;
    return { winnerId: winner, unlocked: name ?? null };
  });
}

/** The race's phase on the server's clock (`now`) and its record. */
export function phaseOf(race: RaceRecord, now: number): RacePhase {
  if (race.finishedAt !== null) return "finished";
  return race.counting || now >= race.joinClosesAt ? "running" : "joining";
}

/**
 * The race as each viewer sees it (one read of the members' profiles): another viewer sees a member in
 * anonymous mode as ANONYMOUS_NAME without Discord id or avatar; the member sees themself as they are.
 */
export async function raceViews(
  db: Database,
  race: RaceRecord,
  standings: readonly RaceStanding[],
  viewerIds: readonly string[],
  now: number,
): Promise<Map<string, RaceView>> {
  const profiles = await loadProfiles(db, [...new Set([race.startedBy, ...standings.map((s) => s.playerId)])]);
  const phase = phaseOf(race, now);
  const views = new Map<string, RaceView>();
  for (const viewer of new Set(viewerIds)) {
    const rows: RaceRow[] = [];
    for (const s of standings) {
      const profile = profiles.get(s.playerId);
      if (!profile) continue;
      const shown = shownTo(profile, viewer);
      rows.push({
        rank: rows.length + 1,
        ...shown,
        net: s.net,
        rounds: s.rounds,
        winner: s.playerId === race.winnerId,
      });
    }
    const starter = profiles.get(race.startedBy);
    views.set(viewer, {
      id: race.id,
      phase,
      minutes: race.minutes,
      startedBy: starter ? shownTo(starter, viewer).username : ANONYMOUS_NAME,
      joinClosesAt: new Date(race.joinClosesAt).toISOString(),
      endsAt: new Date(race.endsAt).toISOString(),
      now: new Date(now).toISOString(),
      joined: standings.some((s) => s.playerId === viewer),
      rows,
    });
  }
  return views;
}
