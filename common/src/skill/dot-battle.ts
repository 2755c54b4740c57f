import {
  ARENA_HEIGHT,
  ARENA_WIDTH,
  DIRECTIONS,
  FP,
  SkillRng,
  TICKS_PER_SECOND,
  UNIT,
  clamp,
  cosDir,
  dist2,
  idiv,
  isqrt,
  sinDir,
} from "./fixed";
import { replayLog, type Replay } from "./input-log";

/**
 * Dot Battle: a bullet-hell arena. The player's dot fires upwards on its own; the player moves (and
 * may hold "focus" to move slowly) to dodge the enemies' bullets and line up shots. Every enemy
 * destroyed is a kill, and a kill pays one coin. The round ends when the last of three lives is lost or
 * after 60 seconds.
 *
 * One step is one tick (1/60 s). Positions are in 1/256 pixel; the arena is 480 × 640 pixels.
 */
export const DOT_BATTLE_ROUND_TICKS = 60 * TICKS_PER_SECOND;

/** Input bits: the keys held from the event's tick on. */
export const KEY_UP = 1;
export const KEY_DOWN = 2;
export const KEY_LEFT = 4;
export const KEY_RIGHT = 8;
export const KEY_FOCUS = 16;
export const KEY_MASK = 31;

/** One input event: [tick, keys]. */
export type DotBattleInput = readonly [tick: number, keys: number];

const px = (pixels: number) => pixels * FP;
const W = px(ARENA_WIDTH);
const H = px(ARENA_HEIGHT);

export const PLAYER_RADIUS = 3;
export const LIVES = 3;
const PLAYER_SPEED = px(4);
const FOCUS_SPEED = px(2);
const PLAYER_MARGIN = px(8);
const INVULNERABLE_TICKS = 120;
const SHOT_INTERVAL = 6;
const SHOT_SPEED = px(14);
export const SHOT_RADIUS = 3;
const MAX_ENEMIES = 24;
const MAX_BULLETS = 400;
/** 181/256 ≈ 1/√2: the per-axis share of a diagonal move. */
const DIAGONAL = 181;

export type EnemyKind = "drifter" | "spinner" | "diver";
export const ENEMY_RADIUS: Record<EnemyKind, number> = { drifter: 10, spinner: 14, diver: 8 };
const ENEMY_HP: Record<EnemyKind, number> = { drifter: 1, spinner: 5, diver: 1 };

export interface Enemy {
  id: number;
  kind: EnemyKind;
  x: number;
  y: number;
  vx: number;
  vy: number;
  hp: number;
  age: number;
  /** Ticks until the next volley. */
  reload: number;
  /** Wobble phase (drifter), hover height (spinner). */
  param: number;
}

export interface Bullet {
  x: number;
  y: number;
  vx: number;
  vy: number;
  radius: number;
}

export interface DotBattleState {
  tick: number;
  keys: number;
  player: { x: number; y: number };
  lives: number;
  invulnerable: number;
  kills: number;
  enemies: Enemy[];
  shots: Bullet[];
  bullets: Bullet[];
  nextSpawn: number;
  nextEnemyId: number;
  over: boolean;
}

export interface DotBattleResult {
  kills: number;
  /** Ticks played: the tick at which the last life was lost (plus one), or the round length. */
  ticks: number;
  livesLeft: number;
}

/** The game: create it from the round's seed, then call `step` once per tick with the keys held. */
export class DotBattle {
  readonly state: DotBattleState;
  private readonly rng: SkillRng;

  constructor(seed: string) {
    this.rng = new SkillRng(seed);
    this.state = {
      tick: 0,
      keys: 0,
      player: { x: px(240), y: px(560) },
      lives: LIVES,
      invulnerable: 0,
      kills: 0,
      enemies: [],
      shots: [],
      bullets: [],
      nextSpawn: 45,
      nextEnemyId: 1,
      over: false,
    };
  }

  get over(): boolean {
    return this.state.over;
  }

  /** Advances one tick with `keys` held during it. */
  step(keys: number): void {
    const s = this.state;
    if (s.over) return;
    s.keys = keys & KEY_MASK;
    this.movePlayer();
    if (s.tick % SHOT_INTERVAL === 0) this.fire();
    if (s.tick >= s.nextSpawn) this.spawn();
    this.moveEnemies();
    s.shots = s.shots.filter((b) => advance(b) && b.y > -px(20));
    s.bullets = s.bullets.filter((b) => advance(b) && inside(b, px(20)));
    this.collide();
    if (s.invulnerable > 0) s.invulnerable -= 1;
    s.tick += 1;
    if (s.lives <= 0 || s.tick >= DOT_BATTLE_ROUND_TICKS) s.over = true;
  }

  result(): DotBattleResult {
    return { kills: this.state.kills, ticks: this.state.tick, livesLeft: this.state.lives };
  }

  private movePlayer(): void {
    const s = this.state;
    const dx = (s.keys & KEY_RIGHT ? 1 : 0) - (s.keys & KEY_LEFT ? 1 : 0);
    const dy = (s.keys & KEY_DOWN ? 1 : 0) - (s.keys & KEY_UP ? 1 : 0);
    let speed = s.keys & KEY_FOCUS ? FOCUS_SPEED : PLAYER_SPEED;
    if (dx !== 0 && dy !== 0) speed = idiv(speed * DIAGONAL, 256);
    s.player.x = clamp(s.player.x + dx * speed, PLAYER_MARGIN, W - PLAYER_MARGIN);
    s.player.y = clamp(s.player.y + dy * speed, PLAYER_MARGIN, H - PLAYER_MARGIN);
  }

  private fire(): void {
    const { player, keys, shots } = this.state;
    const spread = keys & KEY_FOCUS ? px(4) : px(8);
    for (const offset of [-spread, spread]) {
      shots.push({ x: player.x + offset, y: player.y - px(10), vx: 0, vy: -SHOT_SPEED, radius: SHOT_RADIUS });
    }
  }

  /** One enemy, then the time of the next: spawns come faster as the round goes on. */
  private spawn(): void {
    const s = this.state;
    const r = this.rng;
    const seconds = idiv(s.tick, TICKS_PER_SECOND);
    s.nextSpawn = s.tick + Math.max(16, 64 - seconds) + r.below(24);
    const roll = r.below(100);
    const kind: EnemyKind = roll < 12 + idiv(seconds, 2) ? "spinner" : roll < 30 + seconds ? "diver" : "drifter";
    const x = px(r.between(30, ARENA_WIDTH - 30));
    if (s.enemies.length >= MAX_ENEMIES) return;
    const enemy: Enemy = { id: s.nextEnemyId++, kind, x, y: -px(12), vx: 0, vy: 0, hp: ENEMY_HP[kind], age: 0, reload: 0, param: 0 };
    if (kind === "drifter") {
      enemy.vy = r.between(256, 512) + seconds * 4;
      enemy.param = r.below(120);
      enemy.reload = r.between(20, 80);
    } else if (kind === "spinner") {
      enemy.vy = 384;
      enemy.param = px(r.between(80, 260));
      enemy.reload = 60;
    } else {
      const aim = aimAt(x, enemy.y, s.player.x, s.player.y, px(3) + seconds * 8);
      enemy.vx = aim.vx;
      enemy.vy = Math.max(aim.vy, px(1));
    }
    s.enemies.push(enemy);
  }

  private moveEnemies(): void {
    const s = this.state;
    for (const e of s.enemies) {
      e.age += 1;
      if (e.kind === "drifter") {
        // A triangle wave: sideways drift of up to 1.5 px a tick with a period of 2 seconds.
        const m = (e.age + e.param) % 120;
        e.vx = idiv(384 * (4 * Math.abs(m - 60) - 120), 120);
      } else if (e.kind === "spinner") {
        if (e.age > 420) e.vy = -384;
        else if (e.y >= e.param) e.vy = 0;
      }
      e.x += e.vx;
      e.y += e.vy;
      e.reload -= 1;
      if (e.reload <= 0 && e.y > 0) this.volley(e);
    }
    s.enemies = s.enemies.filter((e) => e.y < H + px(30) && e.y > -px(40) && e.x > -px(30) && e.x < W + px(30));
  }

  private volley(e: Enemy): void {
    const s = this.state;
    const seconds = idiv(s.tick, TICKS_PER_SECOND);
    if (e.kind === "drifter") {
      // Three aimed shots in a narrow fan.
      e.reload = Math.max(36, 80 - seconds);
      const aim = aimAt(e.x, e.y, s.player.x, s.player.y, px(3) + seconds * 4);
      for (const turn of [-1, 0, 1]) {
        this.addBullet(e.x, e.y, aim.vx + idiv(turn * aim.vy, 6), aim.vy - idiv(turn * aim.vx, 6), 4);
      }
    } else if (e.kind === "spinner") {
      // A ring of 16 that turns by half a step every volley.
      e.reload = Math.max(36, 70 - seconds);
      const offset = idiv(e.age, e.reload) % 2;
      const speed = px(2) + seconds * 3;
      for (let k = offset; k < DIRECTIONS; k += 2) {
        this.addBullet(e.x, e.y, idiv(cosDir(k) * speed, UNIT), idiv(sinDir(k) * speed, UNIT), 5);
      }
    } else {
      e.reload = 1_000_000;
    }
  }

  private addBullet(x: number, y: number, vx: number, vy: number, radius: number): void {
    if (this.state.bullets.length < MAX_BULLETS) this.state.bullets.push({ x, y, vx, vy, radius });
  }

  private collide(): void {
    const s = this.state;
    const survivors: Enemy[] = [];
    for (const e of s.enemies) {
      const reach = px(ENEMY_RADIUS[e.kind] + SHOT_RADIUS);
      s.shots = s.shots.filter((shot) => {
        if (e.hp <= 0 || dist2(shot.x, shot.y, e.x, e.y) > reach * reach) return true;
        e.hp -= 1;
        return false;
      });
      if (e.hp <= 0) {
        s.kills += 1;
        continue;
      }
      const body = px(ENEMY_RADIUS[e.kind] + PLAYER_RADIUS);
      if (s.invulnerable === 0 && dist2(s.player.x, s.player.y, e.x, e.y) <= body * body) {
        this.hit();
        if (e.kind !== "spinner") continue; // a small enemy is destroyed by the collision (no kill)
      }
      survivors.push(e);
    }
    s.enemies = survivors;
    if (s.invulnerable > 0) return;
    const index = s.bullets.findIndex((b) => {
      const reach = px(b.radius + PLAYER_RADIUS);
      return dist2(b.x, b.y, s.player.x, s.player.y) <= reach * reach;
    });
    if (index >= 0) {
      s.bullets.splice(index, 1);
      this.hit();
    }
  }

  private hit(): void {
    const s = this.state;
    if (s.invulnerable > 0) return;
    s.lives -= 1;
    s.invulnerable = INVULNERABLE_TICKS;
  }
}

function advance(b: Bullet): boolean {
  b.x += b.vx;
  b.y += b.vy;
  return true;
}

const inside = (b: Bullet, margin: number): boolean => b.x > -margin && b.x < W + margin && b.y > -margin && b.y < H + margin;

/** A velocity of length `speed` from (x, y) towards (tx, ty); straight down when they coincide. */
function aimAt(x: number, y: number, tx: number, ty: number, speed: number): { vx: number; vy: number } {
  const dx = tx - x;
  const dy = ty - y;
  const len = isqrt(dx * dx + dy * dy);
  if (len === 0) return { vx: 0, vy: speed };
  return { vx: idiv(dx * speed, len), vy: idiv(dy * speed, len) };
}

/** Plays a log to the end of the game; `used` counts the inputs that fell inside the game. */
export function runDotBattle(seed: string, inputs: readonly DotBattleInput[]): { game: DotBattle; used: number } {
  const game = new DotBattle(seed);
  let keys = 0;
  let used = 0;
  while (!game.over) {
    const event = inputs[used];
    if (event && event[0] === game.state.tick) {
      keys = event[1];
      used += 1;
    }
    game.step(keys);
  }
  return { game, used };
}

/** Replays a round from its seed and input log, exactly as the browser played it. */
export function replayDotBattle(seed: string, inputs: readonly DotBattleInput[]): Replay<DotBattleResult> {
  return replayLog(inputs, DOT_BATTLE_ROUND_TICKS, () => {
    const { game, used } = runDotBattle(seed, inputs);
    return { used, endTick: game.state.tick, result: game.result() };
  });
}
