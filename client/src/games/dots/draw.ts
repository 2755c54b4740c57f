import { DOT_RADIUS, type ConnectDots } from "@casino/common/skill/connect-dots";
import { ARENA_HEIGHT, ARENA_WIDTH, FP, ticksToMs } from "@casino/common/skill/fixed";
import { formatRecordTime } from "@casino/common/format";

const GRID = 32;
/** The board before a round: ten greyed dots in a loose spiral, so the arena never looks empty. */
const PREVIEW = Array.from({ length: 10 }, (_, i) => {
  const angle = i * 0.9 - 1.2;
  const radius = 70 + i * 14;
  return { x: Math.round(ARENA_WIDTH / 2 + Math.cos(angle) * radius), y: Math.round(ARENA_HEIGHT / 2 + Math.sin(angle) * radius * 1.25) };
});

/** Draws the board in arena units (the context is already scaled to 480 × 640). */
export function drawDots(ctx: CanvasRenderingContext2D, game: ConnectDots | null, now: number): void {
  background(ctx);
  if (!game) {
    for (const [i, d] of PREVIEW.entries()) dot(ctx, d.x, d.y, i + 1, "idle", now);
    return;
  }
  const s = game.state;
  const pen = { x: s.pen.x / FP, y: s.pen.y / FP };
  // Under rules 2 the pen finishes a stroke after the pointer is lifted: it draws while it has pressed points ahead.
  const drawing = s.pointer.down || s.penDown === true || (s.path?.some((p) => p.down) ?? false);

  // The path so far, then the pen's line from the last dot reached.
  if (s.connected > 0) {
    ctx.save();
    ctx.lineCap = "round";
    ctx.lineJoin = "round";
    ctx.shadowColor = "rgba(52, 211, 153, 0.8)";
    ctx.shadowBlur = 12;
    ctx.strokeStyle = "#34d399";
    ctx.lineWidth = 5;
    ctx.beginPath();
    s.dots.slice(0, s.connected).forEach((d, i) => (i === 0 ? ctx.moveTo(d.x, d.y) : ctx.lineTo(d.x, d.y)));
    if (drawing && !s.over) ctx.lineTo(pen.x, pen.y);
    ctx.stroke();
    ctx.restore();
  }

  s.dots.forEach((d, i) => dot(ctx, d.x, d.y, i + 1, i < s.connected ? "done" : i === s.connected ? "next" : "later", now));

  // The pen (it follows the pointer at a bounded speed), and the pointer itself while pressed.
  if (!s.over) {
    ctx.save();
    ctx.fillStyle = drawing ? "#fbbf24" : "rgba(251, 191, 36, 0.55)";
    ctx.shadowColor = "rgba(251, 191, 36, 0.9)";
    ctx.shadowBlur = drawing ? 16 : 6;
    ctx.beginPath();
    ctx.arc(pen.x, pen.y, 7, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
    if (s.pointer.down) {
      ctx.strokeStyle = "rgba(255, 255, 255, 0.35)";
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.arc(s.pointer.x, s.pointer.y, 11, 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  hud(ctx, formatRecordTime(ticksToMs(s.completedAtTick ?? s.tick)), `${s.connected} / ${s.dots.length}`);
}

function background(ctx: CanvasRenderingContext2D): void {
  const sky = ctx.createLinearGradient(0, 0, 0, ARENA_HEIGHT);
  sky.addColorStop(0, "#0f172a");
  sky.addColorStop(1, "#052e2b");
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, ARENA_WIDTH, ARENA_HEIGHT);
  ctx.fillStyle = "rgba(148, 163, 184, 0.16)";
  for (let x = GRID / 2; x < ARENA_WIDTH; x += GRID) {
    for (let y = GRID / 2; y < ARENA_HEIGHT; y += GRID) ctx.fillRect(x - 1, y - 1, 2, 2);
  }
}

type DotLook = "idle" | "done" | "next" | "later";

function dot(ctx: CanvasRenderingContext2D, x: number, y: number, n: number, look: DotLook, now: number): void {
  ctx.save();
  if (look === "next") {
    const pulse = (Math.sin(now / 180) + 1) / 2;
    ctx.strokeStyle = `rgba(251, 191, 36, ${0.35 + pulse * 0.45})`;
    ctx.lineWidth = 3;
    ctx.beginPath();
    ctx.arc(x, y, DOT_RADIUS + 5 + pulse * 4, 0, Math.PI * 2);
    ctx.stroke();
  }
  const fill = { idle: "#1e293b", done: "#10b981", next: "#f59e0b", later: "#334155" }[look];
  ctx.fillStyle = fill;
  ctx.shadowColor = look === "done" ? "rgba(16, 185, 129, 0.7)" : look === "next" ? "rgba(245, 158, 11, 0.7)" : "transparent";
  ctx.shadowBlur = look === "done" || look === "next" ? 14 : 0;
  ctx.beginPath();
  ctx.arc(x, y, DOT_RADIUS, 0, Math.PI * 2);
  ctx.fill();
  ctx.shadowBlur = 0;
  ctx.strokeStyle = look === "idle" ? "rgba(148, 163, 184, 0.35)" : "rgba(255, 255, 255, 0.6)";
  ctx.lineWidth = 2;
  ctx.stroke();
  ctx.fillStyle = look === "next" || look === "done" ? "#0f172a" : look === "idle" ? "#64748b" : "#e2e8f0";
  ctx.font = "bold 16px ui-sans-serif, system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(String(n), x, y + 1);
  ctx.restore();
}

function hud(ctx: CanvasRenderingContext2D, left: string, right: string): void {
  ctx.save();
  ctx.fillStyle = "rgba(2, 6, 23, 0.55)";
  ctx.fillRect(0, 0, ARENA_WIDTH, 36);
  ctx.font = "bold 18px ui-monospace, SFMono-Regular, Menlo, monospace";
  ctx.textBaseline = "middle";
  ctx.fillStyle = "#fcd34d";
  ctx.textAlign = "left";
  ctx.fillText(left, 12, 18);
  ctx.fillStyle = "#e2e8f0";
  ctx.textAlign = "right";
  ctx.fillText(right, ARENA_WIDTH - 12, 18);
  ctx.restore();
}
