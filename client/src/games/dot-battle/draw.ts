import {
  DOT_BATTLE_ROUND_TICKS,
  ENEMY_RADIUS,
  KEY_FOCUS,
  LIVES,
  PLAYER_RADIUS,
  type DotBattle,
  type Enemy,
} from "@casino/common/skill/dot-battle";
import { ARENA_HEIGHT, ARENA_WIDTH, FP, TICKS_PER_SECOND } from "@casino/common/skill/fixed";

/** A fixed starfield (drawing only: the simulation never sees it). */
const STARS = (() => {
  let s = 0x2545f491;
  const next = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  return Array.from({ length: 70 }, () => ({
    x: next() * ARENA_WIDTH,
    y: next() * ARENA_HEIGHT,
    speed: 0.3 + next() * 1.4,
    size: next() < 0.15 ? 2 : 1,
  }));
})();

const ENEMY_COLOURS: Record<Enemy["kind"], { fill: string; glow: string }> = {
  drifter: { fill: "#fb7185", glow: "rgba(251, 113, 133, 0.8)" },
  spinner: { fill: "#a78bfa", glow: "rgba(167, 139, 250, 0.85)" },
  diver: { fill: "#fb923c", glow: "rgba(251, 146, 60, 0.85)" },
};

/** Draws the arena in arena units (the context is already scaled to 480 × 640). */
export function drawBattle(ctx: CanvasRenderingContext2D, game: DotBattle | null): void {
  const s = game?.state;
  const tick = s?.tick ?? 0;
  background(ctx, tick);
  if (!s) {
    player(ctx, ARENA_WIDTH / 2, 560, false, false);
    return;
  }

  // The player's shots.
  ctx.save();
  ctx.fillStyle = "#fde68a";
  ctx.shadowColor = "rgba(253, 230, 138, 0.9)";
  ctx.shadowBlur = 8;
  for (const b of s.shots) roundedBar(ctx, b.x / FP - 1.5, b.y / FP - 7, 3, 14);
  ctx.restore();

  for (const e of s.enemies) enemy(ctx, e);

  // Enemy bullets: a bright core in a pink halo, at their true size.
  ctx.save();
  for (const b of s.bullets) {
    const x = b.x / FP;
    const y = b.y / FP;
    const r = b.radius;
    ctx.fillStyle = "rgba(244, 114, 182, 0.35)";
    ctx.beginPath();
    ctx.arc(x, y, r + 3, 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = "#fdf2f8";
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();

  const blinking = s.invulnerable > 0 && Math.floor(tick / 5) % 2 === 0;
  if (s.lives > 0 && !blinking) player(ctx, s.player.x / FP, s.player.y / FP, (s.keys & KEY_FOCUS) !== 0, s.invulnerable > 0);

  hud(ctx, s.kills, s.lives, tick);
}

function background(ctx: CanvasRenderingContext2D, tick: number): void {
  const sky = ctx.createLinearGradient(0, 0, 0, ARENA_HEIGHT);
  sky.addColorStop(0, "#020617");
  sky.addColorStop(0.6, "#0b1331");
  sky.addColorStop(1, "#1e1b4b");
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, ARENA_WIDTH, ARENA_HEIGHT);
  for (const star of STARS) {
    const y = (star.y + tick * star.speed) % ARENA_HEIGHT;
    ctx.fillStyle = `rgba(226, 232, 240, ${0.25 + star.speed * 0.3})`;
    ctx.fillRect(star.x, y, star.size, star.size * (star.speed > 1.2 ? 3 : 1));
  }
}

function player(ctx: CanvasRenderingContext2D, x: number, y: number, focus: boolean, shielded: boolean): void {
  ctx.save();
  ctx.shadowColor = "rgba(34, 211, 238, 0.9)";
  ctx.shadowBlur = 18;
  ctx.fillStyle = "#22d3ee";
  ctx.beginPath();
  ctx.moveTo(x, y - 13);
  ctx.lineTo(x + 10, y + 9);
  ctx.lineTo(x, y + 4);
  ctx.lineTo(x - 10, y + 9);
  ctx.closePath();
  ctx.fill();
  ctx.shadowBlur = 0;
  if (shielded) {
    ctx.strokeStyle = "rgba(125, 211, 252, 0.6)";
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.arc(x, y, 16, 0, Math.PI * 2);
    ctx.stroke();
  }
  // The hitbox is the white core: only it can be hit. Focus makes it stand out.
  ctx.fillStyle = "#ffffff";
  ctx.beginPath();
  ctx.arc(x, y, PLAYER_RADIUS, 0, Math.PI * 2);
  ctx.fill();
  if (focus) {
    ctx.strokeStyle = "rgba(255, 255, 255, 0.8)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.arc(x, y, PLAYER_RADIUS + 4, 0, Math.PI * 2);
    ctx.stroke();
  }
  ctx.restore();
}

function enemy(ctx: CanvasRenderingContext2D, e: Enemy): void {
  const x = e.x / FP;
  const y = e.y / FP;
  const r = ENEMY_RADIUS[e.kind];
  const colour = ENEMY_COLOURS[e.kind];
  ctx.save();
  ctx.shadowColor = colour.glow;
  ctx.shadowBlur = 14;
  ctx.fillStyle = colour.fill;
  if (e.kind === "diver") {
    const angle = Math.atan2(e.vy, e.vx);
    ctx.translate(x, y);
    ctx.rotate(angle);
    ctx.beginPath();
    ctx.moveTo(r + 4, 0);
    ctx.lineTo(-r, r);
    ctx.lineTo(-r / 2, 0);
    ctx.lineTo(-r, -r);
    ctx.closePath();
    ctx.fill();
  } else {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.shadowBlur = 0;
    ctx.fillStyle = "rgba(15, 23, 42, 0.55)";
    ctx.beginPath();
    ctx.arc(x, y, r * 0.45, 0, Math.PI * 2);
    ctx.fill();
    if (e.kind === "spinner") {
      ctx.strokeStyle = "rgba(237, 233, 254, 0.8)";
      ctx.lineWidth = 2;
      for (let k = 0; k < 4; k++) {
        const a = e.age / 12 + (k * Math.PI) / 2;
        ctx.beginPath();
        ctx.arc(x, y, r + 4, a, a + 0.8);
        ctx.stroke();
      }
      // Hit points left, as a thin ring.
      ctx.strokeStyle = "rgba(250, 204, 21, 0.9)";
      ctx.beginPath();
      ctx.arc(x, y, r - 2, -Math.PI / 2, -Math.PI / 2 + (Math.PI * 2 * e.hp) / 5);
      ctx.stroke();
    }
  }
  ctx.restore();
}

function hud(ctx: CanvasRenderingContext2D, kills: number, lives: number, tick: number): void {
  ctx.save();
  ctx.fillStyle = "rgba(2, 6, 23, 0.55)";
  ctx.fillRect(0, 0, ARENA_WIDTH, 36);
  const left = Math.max(0, DOT_BATTLE_ROUND_TICKS - tick);
  ctx.fillStyle = "rgba(34, 211, 238, 0.7)";
  ctx.fillRect(0, 34, (ARENA_WIDTH * left) / DOT_BATTLE_ROUND_TICKS, 2);
  ctx.font = "bold 18px ui-monospace, SFMono-Regular, Menlo, monospace";
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  ctx.fillStyle = "#fcd34d";
  ctx.fillText(`${kills} ${kills === 1 ? "KILL" : "KILLS"}`, 12, 18);
  ctx.textAlign = "center";
  ctx.fillStyle = "#e2e8f0";
  ctx.fillText(`${Math.ceil(left / TICKS_PER_SECOND)}s`, ARENA_WIDTH / 2, 18);
  for (let i = 0; i < LIVES; i++) {
    ctx.fillStyle = i < lives ? "#22d3ee" : "rgba(148, 163, 184, 0.3)";
    ctx.beginPath();
    ctx.arc(ARENA_WIDTH - 20 - i * 20, 18, 6, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.restore();
}

function roundedBar(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, w / 2);
  ctx.fill();
}
