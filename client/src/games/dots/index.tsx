import { useRef, useState, type PointerEvent } from "react";
import { ConnectDots, DOTS_ROUND_TICKS, DOTS_RULES_VERSION, DOT_COUNT, PEN_SPEED } from "@casino/common/skill/connect-dots";
import { ARENA_HEIGHT, ARENA_WIDTH, TICKS_PER_SECOND, clamp, ticksToMs } from "@casino/common/skill/fixed";
import { InputRecorder } from "@casino/common/skill/input-log";
import { DOTS_REWARD } from "@casino/common/constants";
import { formatRecordTime } from "@casino/common/format";
import type { GameTableProps } from "../contract";
import { prepareCanvas, useFixedStep } from "../shared/fixed-step";
import { useSkillRound } from "../shared/skill-round";
import { ArenaCanvas, ArenaOverlay, SkillFrame, Stat } from "../shared/SkillFrame";
import { drawDots } from "./draw";
import { SwipeTrail, type Pointer } from "./trail";

interface Live {
  game: ConnectDots;
  recorder: InputRecorder<Pointer>;
  held: Pointer;
  trail: SwipeTrail;
}

interface Hud {
  connected: number;
  ticks: number;
  /** The dot (1-based) a line that missed had to pass through, while it is still the next one. */
  missed: number | null;
}

/**
 * Connect the Dots: the round's seed (from the server) places ten numbered dots; the player holds the
 * pointer down and draws through them in order. The game is the common simulation stepped 60 times a
 * second; every pointer sample (coalesced ones included) goes through a `SwipeTrail`, which hands the
 * input log the points the server must replay: where the line passed through a dot, where the pointer
 * went down and came up, and otherwise its latest position every other tick.
 */
export default function DotsTable(props: GameTableProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const live = useRef<Live | null>(null);
  const pressed = useRef(false);
  const [hud, setHud] = useState<Hud>({ connected: 0, ticks: 0, missed: null });
  const skill = useSkillRound("dots", (round) => {
    const game = new ConnectDots(round.seed, DOTS_RULES_VERSION);
    const initial: Pointer = [game.state.pointer.x, game.state.pointer.y, 0];
    live.current = { game, recorder: new InputRecorder<Pointer>(initial), held: initial, trail: new SwipeTrail(game.state.dots, initial) };
    pressed.current = false;
    setHud({ connected: 0, ticks: 0, missed: null });
  });

  const finish = (l: Live) => {
    const result = l.game.result();
    if (result.completed && result.completionMs !== null) {
      void skill.submit({
        game: "dots",
        inputs: l.recorder.events,
        claimedCompletionMs: result.completionMs,
        rulesVersion: DOTS_RULES_VERSION,
      });
    } else {
      skill.endUnscored(`Time's up: ${result.connected} of ${DOT_COUNT} dots connected. Complete the puzzle to earn ${DOTS_REWARD} coins.`);
    }
  };

  const step = () => {
    const l = live.current;
    if (!l || l.game.over) return false;
    const tick = l.game.state.tick;
    // The trail's queued points first, as fast as the input rate lets them in; then the latest position,
    // sampled every other tick, which keeps the log within the rate (30 a second) without freezing the pen.
    const queued = l.trail.peek();
    const wanted: Pointer = queued ?? (tick % 2 === 0 ? l.trail.latest : l.held);
    l.held = l.recorder.at(tick, wanted);
    if (queued && l.held.every((v, i) => v === queued[i])) l.trail.shift();
    const [x, y, down] = l.held;
    l.game.step(x, y, down === 1);
    const s = l.game.state;
    // Once the pen has caught up, the trail aims at the dot the game says comes next.
    if (l.trail.pending === 0 && l.game.caughtUp) l.trail.aim = s.connected;
    const missed = s.miss && s.miss.expected === s.connected && !s.over ? s.miss.expected + 1 : null;
    if (s.connected !== hud.connected || missed !== hud.missed || s.over || tick % 6 === 0) {
      setHud({ connected: s.connected, ticks: s.completedAtTick ?? s.tick, missed });
    }
    if (l.game.over) finish(l);
    return !l.game.over;
  };

  const draw = () => {
    const el = canvas.current;
    if (!el) return;
    const ctx = prepareCanvas(el, ARENA_WIDTH, ARENA_HEIGHT);
    if (ctx) drawDots(ctx, live.current?.game ?? null, performance.now());
    const s = live.current?.game.state;
    el.dataset.tick = String(s?.tick ?? 0);
    el.dataset.connected = String(s?.connected ?? 0);
  };

  useFixedStep(skill.phase === "playing", step, draw);

  /** Hands the trail every sample of a pointer event (the coalesced ones a quick swipe is made of). */
  const sample = (e: PointerEvent<HTMLCanvasElement>) => {
    const trail = live.current?.trail;
    if (!trail) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const native = e.nativeEvent;
    const coalesced = typeof native.getCoalescedEvents === "function" ? native.getCoalescedEvents() : [];
    for (const p of coalesced.length > 0 ? coalesced : [native]) {
      const x = clamp(Math.round(((p.clientX - rect.left) / rect.width) * ARENA_WIDTH), 0, ARENA_WIDTH);
      const y = clamp(Math.round(((p.clientY - rect.top) / rect.height) * ARENA_HEIGHT), 0, ARENA_HEIGHT);
      trail.add([x, y, pressed.current ? 1 : 0]);
    }
  };

  const shown =
    skill.outcome?.kind === "rewarded" && skill.outcome.answer.completionMs !== null
      ? skill.outcome.answer.completionMs
      : ticksToMs(hud.ticks);
  return (
    <SkillFrame
      table={props}
      skill={skill}
      pays={`Complete the puzzle to earn ${DOTS_REWARD} coins`}
      controls="Hold the mouse or your finger down and draw through the dots in order."
      replay={{ input: "drawing", pays: "the time its replay gives" }}
      rules={
        <>
          <p>
            Ten numbered dots appear when the round starts. Press and hold anywhere, then draw through the dots from 1 to {DOT_COUNT} in
            order, slowly or in one quick swipe: a dot counts when your line passes through it. The pen traces your line at up to{" "}
            {PEN_SPEED * TICKS_PER_SECOND} pixels a second, so the quickest route wins. If your line misses the next dot, the board says so.
          </p>
          <p>
            Reaching the last dot completes the puzzle and earns {DOTS_REWARD} coins; your time goes on the Speed board. You have{" "}
            {ticksToMs(DOTS_ROUND_TICKS) / 1000} seconds.
          </p>
        </>
      }
      stats={
        <>
          <Stat label="Dots" value={`${hud.connected}/${DOT_COUNT}`} testId="stat-connected" />
          <Stat label="Time" value={formatRecordTime(shown)} testId="stat-time" tone="text-warning" />
          <Stat label="Reward" value={DOTS_REWARD} testId="stat-reward" tone="text-positive" />
        </>
      }
      board={{
        title: "Speed records",
        path: "/game/dots/leaderboard",
        empty: "No speed records yet. Play Connect the Dots to set a record!",
        error: "Failed to load speed records. Please try again later.",
        value: (e) => formatRecordTime(Number(e.completionTimeMs)),
      }}
    >
      <div className="relative">
        <ArenaCanvas
          canvasRef={canvas}
          testId="dots-canvas"
          label="Connect the Dots board"
          playing={skill.phase === "playing"}
          draw={draw}
          onPress={(e) => {
            pressed.current = true;
            sample(e);
          }}
          onMove={sample}
          onRelease={(e) => {
            pressed.current = false;
            sample(e);
          }}
        />
        <p
          role="status"
          aria-live="polite"
          data-testid="dots-miss"
          data-dot={hud.missed ?? undefined}
          className="pointer-events-none absolute inset-x-0 bottom-2 mx-auto w-fit rounded-md bg-background/85 px-3 py-1 text-center text-sm font-semibold text-warning empty:hidden"
        >
          {hud.missed !== null ? `Missed: the line must pass through dot ${hud.missed} next` : ""}
        </p>
        <ArenaOverlay
          skill={skill}
          title="Connect the Dots"
          hint={`Draw through dots 1 to ${DOT_COUNT} in order, as fast as you can.`}
          over={
            <>
              <p className="text-xl font-black text-foreground">{skill.phase === "submitting" ? "Puzzle complete!" : "Round over"}</p>
              <p className="mt-1 text-sm text-muted-foreground">
                {skill.phase === "submitting"
                  ? "The server is replaying your drawing…"
                  : skill.outcome?.kind === "rewarded"
                    ? `${formatRecordTime(skill.outcome.answer.completionMs ?? 0)} · +${skill.outcome.answer.reward} coins`
                    : "No coins this round."}
              </p>
            </>
          }
        />
      </div>
    </SkillFrame>
  );
}
