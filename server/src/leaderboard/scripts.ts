import type { Redis } from "ioredis";

/**
 * The Lua scripts that change boards. Each checks the build epoch first, so nothing is written into a
 * board that a rebuild replaced (the caller re-reads from the new build's positions instead). Scores
 * arrive as strings computed by the caller (Lua would print big numbers with 14 digits), and results
 * go back as one comma-separated string (the in-memory stand-in cannot return multi-element tables
 * built in a loop).
 */

/**
 * Ledger entries, oldest first: per entry ARGV = player, entry id, balance score, net score or "",
 * day key, day expiry, week key, week expiry. An entry is applied once. For a player with an entry
 * applied since the build: only when its id is above that entry's. For a player not seen since the
 * build: only when the build's snapshot did not contain it, i.e. its id is above the snapshot's top
 * id or was a hole (a transaction in flight) in the snapshot. A player's entries commit in id order
 * (each transaction holds the player's row while it writes them), so this is exactly once, whatever
 * order, repeats or processes the entries come from.
 */
const APPLY_LEDGER = `
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return 'stale' end
local top = tonumber(redis.call('HGET', KEYS[1], 'top') or '0')
local applied = {}
local n = tonumber(ARGV[2])
for i = 0, n - 1 do
  local b = 3 + i * 8
  local player = ARGV[b]
  local id = tonumber(ARGV[b + 1])
  local last = redis.call('HGET', KEYS[2], player)
  local fresh
  if last then
    fresh = id > tonumber(last)
  else
    fresh = id > top or redis.call('SISMEMBER', KEYS[4], ARGV[b + 1]) == 1
  end
  if fresh then
    redis.call('HSET', KEYS[2], player, ARGV[b + 1])
    redis.call('ZADD', KEYS[3], ARGV[b + 2], player)
    if ARGV[b + 3] ~= '' then
      redis.call('ZINCRBY', ARGV[b + 4], ARGV[b + 3], player)
      redis.call('EXPIREAT', ARGV[b + 4], ARGV[b + 5])
      redis.call('ZINCRBY', ARGV[b + 6], ARGV[b + 3], player)
      redis.call('EXPIREAT', ARGV[b + 6], ARGV[b + 7])
    end
    applied[#applied + 1] = player
  end
end
return table.concat(applied, ',')`;

/** A personal best (smaller score is better): ARGV = epoch, then player and score pairs. Repeats are no-ops. */
const APPLY_BEST = `
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return 'stale' end
local changed = {}
for i = 2, #ARGV, 2 do
  local current = redis.call('ZSCORE', KEYS[2], ARGV[i])
  if (not current) or tonumber(ARGV[i + 1]) < tonumber(current) then
    redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[i])
    changed[#changed + 1] = ARGV[i]
  end
end
return table.concat(changed, ',')`;

/** Raises a consumer's stored position (ARGV = epoch, field, position); never lowers it. */
const RAISE_POSITION = `
if redis.call('HGET', KEYS[1], 'epoch') ~= ARGV[1] then return 0 end
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[2]) or '0')
if tonumber(ARGV[3]) > current then redis.call('HSET', KEYS[1], ARGV[2], ARGV[3]) end
return 1`;

/**
 * Stores profiles (ARGV = player and stored profile pairs), each unless the copy there was read later:
 * a stored profile starts with the time it was read at (see encodeProfile).
 */
const STORE_PROFILES = `
for i = 1, #ARGV, 2 do
  local current = redis.call('HGET', KEYS[1], ARGV[i])
  if (not current) or tonumber(string.match(current, '^(%d+)')) <= tonumber(string.match(ARGV[i + 1], '^(%d+)')) then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
return 1`;

/**
 * One page of a board with what it shows of each player, in one round trip (KEYS = meta, board,
 * profiles, balance board; ARGV = first and last 0-based position, "1" to add balances): "" when no
 * build exists, else lines of the board's size, then per row its player, score, stored profile (""
 * when none is stored) and, when asked, score on the balance board.
 */
const READ_PAGE = `
if not redis.call('HGET', KEYS[1], 'epoch') then return '' end
local flat = redis.call('ZRANGE', KEYS[2], ARGV[1], ARGV[2], 'WITHSCORES')
local out = {tostring(redis.call('ZCARD', KEYS[2]))}
if #flat == 0 then return out[1] end
-- Redis runs Lua 5.1 (unpack), the in-memory stand-in Lua 5.3 (table.unpack), where a missing
-- value inside an array reply is not false: anything but a string is "none".
local unpack = table.unpack or unpack
local function text(v) if type(v) == 'string' then return v end return '' end
local ids = {}
for i = 1, #flat, 2 do ids[#ids + 1] = flat[i] end
local stored = redis.call('HMGET', KEYS[3], unpack(ids))
local balances = nil
if ARGV[3] == '1' then balances = redis.call('ZMSCORE', KEYS[4], unpack(ids)) end
for n = 1, #ids do
  out[#out + 1] = ids[n]
  out[#out + 1] = flat[n * 2]
  out[#out + 1] = text(stored[n])
  if balances then out[#out + 1] = text(balances[n]) end
end
return table.concat(out, '\\n')`;

/**
 * A player's place on a board (KEYS = meta, board, profiles; ARGV = player, and "1" to have their stored
 * profile too): "" when no build exists, else lines of 0-based rank, score, board size and the stored
 * profile (empty unless asked for and the player is ranked; a stored profile has no newline).
 */
const READ_RANK = `
if not redis.call('HGET', KEYS[1], 'epoch') then return '' end
local rank = redis.call('ZRANK', KEYS[2], ARGV[1])
local score = redis.call('ZSCORE', KEYS[2], ARGV[1])
local profile = ''
if rank and ARGV[2] == '1' then profile = redis.call('HGET', KEYS[3], ARGV[1]) or '' end
return (rank and tostring(rank) or '') .. '\\n' .. (score or '') .. '\\n' .. tostring(redis.call('ZCARD', KEYS[2])) .. '\\n' .. profile`;

export interface BoardScripts {
  storeProfiles(profiles: string, ...args: string[]): Promise<number>;
  readPage(
    meta: string,
    board: string,
    profiles: string,
    balance: string,
    start: string,
    stop: string,
    balances: "0" | "1",
  ): Promise<string>;
  readRank(meta: string, board: string, profiles: string, player: string, withProfile: "0" | "1"): Promise<string>;
  applyLedger(meta: string, applied: string, balance: string, holes: string, ...args: string[]): Promise<string>;
  applyBest(meta: string, board: string, ...args: string[]): Promise<string>;
  raisePosition(meta: string, epoch: string, field: string, position: string): Promise<number>;
}

export function boardScripts(redis: Redis): Redis & BoardScripts {
  const r = redis as Redis & Partial<BoardScripts>;
  if (!r.applyLedger) {
    redis.defineCommand("applyLedger", { numberOfKeys: 4, lua: APPLY_LEDGER });
    redis.defineCommand("applyBest", { numberOfKeys: 2, lua: APPLY_BEST });
    redis.defineCommand("raisePosition", { numberOfKeys: 1, lua: RAISE_POSITION });
    redis.defineCommand("storeProfiles", { numberOfKeys: 1, lua: STORE_PROFILES });
    redis.defineCommand("readPage", { numberOfKeys: 4, lua: READ_PAGE });
    redis.defineCommand("readRank", { numberOfKeys: 3, lua: READ_RANK });
  }
  return redis as Redis & BoardScripts;
}
