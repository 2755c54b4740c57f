import { formatMultiplier } from "@casino/common/format";
import { useEffect, useRef } from "react";
import { AnimatePresence, animate, motion, useAnimationFrame, useMotionValue, useTransform } from "motion/react";
import type { CrashRoomSnapshot } from "@casino/common/crash-room";

const W = 600;
const H = 300;
const PAD = 24;

/** `hundredths` (250 = 2.50×) as the room shows multipliers. */
export const times = (hundredths: number) => formatMultiplier(hundredths / 100);

/**
 * The run on the room's curve m(t) = e^(rate · t). The drawn multiplier glides to each value the server
 * ticks and never beyond it, so the curve can not show a point the round has not reached; the bust is
 * shown when the room says so.
 */
export function CrashGraph({ room }: { room: CrashRoomSnapshot }) {
  const { phase, curveRate: rate } = room;
  const shown = useMotionValue(100);
  useEffect(() => {
    if (phase === "running" || phase === "busted") {
      const controls = animate(shown, room.multiplier, { duration: phase === "running" ? 0.1 : 0, ease: "linear" });
      return () => controls.stop();
    }
    shown.set(100);
  }, [phase, room.multiplier, room.roundId, shown]);

  // The axes grow with the run: at least to 2×, always a little above the current multiplier.
  const path = useTransform(shown, (m) => curvePath(m, rate));
  const label = useTransform(shown, (m) => times(Math.floor(m)));
  const busted = phase === "busted";

  return (
    <div className="relative h-full min-h-72">
      <svg viewBox={`0 0 ${W} ${H}`} className="h-72 w-full sm:h-80" preserveAspectRatio="none" aria-hidden>
        <line x1={PAD} y1={H - PAD} x2={W} y2={H - PAD} stroke="#334155" strokeWidth={2} />
        <line x1={PAD} y1={0} x2={PAD} y2={H - PAD} stroke="#334155" strokeWidth={2} />
        {(phase === "running" || busted) && (
          <motion.path d={path} fill="none" stroke={busted ? "#fb7185" : "#34d399"} strokeWidth={5} strokeLinecap="round" />
        )}
      </svg>
      <div className="pointer-events-none absolute inset-0 flex flex-col items-center justify-center gap-2">
        <AnimatePresence mode="wait">
          {phase === "betting" && <Countdown key="betting" endsAt={room.bettingEndsAt} />}
          {phase === "waiting" && (
            <motion.p key="waiting" initial={{ opacity: 0 }} animate={{ opacity: 1 }} className="text-lg text-muted-foreground">
              Waiting for the next round…
            </motion.p>
          )}
          {phase === "running" && (
            <motion.div
              key={`running-${room.roundId}`}
              data-testid="crash-room-multiplier"
              initial={{ scale: 0.8, opacity: 0 }}
              animate={{ scale: 1, opacity: 1 }}
              className="rounded-2xl bg-card/90 px-4 text-5xl font-black tabular-nums text-foreground sm:text-6xl"
            >
              {label}
            </motion.div>
          )}
          {busted && (
            <motion.div
              key={`busted-${room.roundId}`}
              data-testid="crash-room-busted"
              data-value={room.crashPoint}
              initial={{ scale: 1.3, opacity: 0 }}
              animate={{ scale: 1, opacity: 1, x: [0, -8, 8, -4, 4, 0] }}
              transition={{ duration: 0.45 }}
              className="flex flex-col items-center rounded-2xl bg-card/90 px-5 py-2"
            >
              <span className="text-sm font-semibold uppercase tracking-widest text-destructive">Busted</span>
              <span className="text-5xl font-black tabular-nums text-destructive sm:text-6xl">@ {times(room.crashPoint)}</span>
            </motion.div>
          )}
        </AnimatePresence>
      </div>
    </div>
  );
}

/**
 * The betting phase's countdown to the server's end time, with a bar that drains. Read from the clock
 * on every frame (not an animation of motion's, which animations off would end at once).
 */
function Countdown({ endsAt }: { endsAt: number }) {
  const left = useMotionValue(0);
  const text = useTransform(left, (ms) => `${(ms / 1000).toFixed(1)}s`);
  const share = useMotionValue(1);
  const width = useTransform(share, (f) => `${f * 100}%`);
  // the end and the whole betting time, from when the countdown was shown
  const total = useRef({ endsAt: 0, ms: 0 });
  useEffect(() => {
    total.current = { endsAt, ms: Math.max(0, endsAt - Date.now()) };
    left.set(total.current.ms);
    share.set(1);
  }, [endsAt, left, share]);
  useAnimationFrame(() => {
    const ms = Math.max(0, total.current.endsAt - Date.now());
    left.set(ms);
    share.set(total.current.ms > 0 ? ms / total.current.ms : 0);
  });
  return (
    <motion.div
      initial={{ opacity: 0, y: 8 }}
      animate={{ opacity: 1, y: 0 }}
      exit={{ opacity: 0, y: -8 }}
      className="flex flex-col items-center gap-1 rounded-2xl bg-card/90 px-5 py-3"
      data-testid="crash-room-countdown"
    >
      <span className="text-sm font-semibold uppercase tracking-widest text-positive">Place your bets</span>
      <motion.span className="text-4xl font-black tabular-nums text-foreground">{text}</motion.span>
      <span className="h-1.5 w-40 overflow-hidden rounded-full bg-muted">
        <motion.span className="block h-full rounded-full bg-emerald-400" style={{ width }} />
      </span>
    </motion.div>
  );
}

/** The curve from 1.00× up to `m` (hundredths), scaled so that it fills the frame. */
function curvePath(m: number, rate: number): string {
  const top = Math.max(200, m * 1.15);
  const elapsed = m <= 100 || rate <= 0 ? 0 : Math.log(m / 100) / rate;
  const span = Math.max(elapsed * 1.15, Math.log(2) / (rate || 1));
  const x = (t: number) => PAD + (t / span) * (W - PAD);
  const y = (h: number) => H - PAD - ((h - 100) / (top - 100)) * (H - 2 * PAD);
  const points: string[] = [];
  for (let i = 0; i <= 48; i++) {
    const t = (elapsed * i) / 48;
    const h = Math.min(m, 100 * Math.exp(rate * t));
    points.push(`${x(t).toFixed(1)},${y(h).toFixed(1)}`);
  }
  return `M ${points.join(" L ")}`;
}
