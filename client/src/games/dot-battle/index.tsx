import { useEffect, useRef, useState, type PointerEvent } from "react";
import {
  DOT_BATTLE_ROUND_TICKS,
  DotBattle,
  KEY_DOWN,
  KEY_FOCUS,
  KEY_LEFT,
  KEY_RIGHT,
  KEY_UP,
  LIVES,
} from "@casino/common/skill/dot-battle";
import { ARENA_HEIGHT, ARENA_WIDTH, FP, TICKS_PER_SECOND, clamp } from "@casino/common/skill/fixed";
import { InputRecorder } from "@casino/common/skill/input-log";
import { DOT_BATTLE_COINS_PER_KILL } from "@casino/common/constants";
import type { GameTableProps } from "../contract";
import { prepareCanvas, useFixedStep } from "../shared/fixed-step";
import { useSkillRound } from "../shared/skill-round";
import { ArenaCanvas, ArenaOverlay, SkillFrame, Stat } from "../shared/SkillFrame";
import { drawBattle } from "./draw";

type Keys = [keys: number];

interface Live {
  game: DotBattle;
  recorder: InputRecorder<Keys>;
}

/** The keys of the game, by KeyboardEvent.code. */
const KEY_BITS: Record<string, number> = {
  ArrowUp: KEY_UP,
  KeyW: KEY_UP,
  ArrowDown: KEY_DOWN,
  KeyS: KEY_DOWN,
  ArrowLeft: KEY_LEFT,
  KeyA: KEY_LEFT,
  ArrowRight: KEY_RIGHT,
  KeyD: KEY_RIGHT,
  ShiftLeft: KEY_FOCUS,
  ShiftRight: KEY_FOCUS,
};

/** A finger steers the ship towards a point this far above it, so the ship stays in sight. */
const TOUCH_LEAD = 56;
/** Steering holds a direction until the ship is this close (pixels) on that axis. */
const STEER_DEAD_ZONE = 5;
/** Steering decides every few ticks, which keeps the log well within the input rate. */
const STEER_EVERY = 3;

/**
 * Dot Battle: the common bullet-hell simulation, seeded by the server, stepped 60 times a second and
 * drawn on a canvas. Arrow keys or WASD move, Shift focuses; on a touch screen (or with the mouse
 * held down) the ship steers towards the pointer. The keys held each tick are recorded into the
 * input log; the server replays it and pays one coin per kill of its replay.
 */
export default function DotBattleTable(props: GameTableProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const live = useRef<Live | null>(null);
  const held = useRef(0);
  const steer = useRef<{ x: number; y: number; keys: number } | null>(null);
  const [hud, setHud] = useState({ kills: 0, lives: LIVES, ticks: 0 });
  const skill = useSkillRound("dot-battle", (round) => {
    live.current = { game: new DotBattle(round.seed), recorder: new InputRecorder<Keys>([0]) };
    held.current = 0;
    steer.current = null;
    setHud({ kills: 0, lives: LIVES, ticks: 0 });
  });
  const playing = skill.phase === "playing";

  useEffect(() => {
    if (!playing) return;
    const down = (e: KeyboardEvent) => {
      const bit = KEY_BITS[e.code];
      if (bit === undefined || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      held.current |= bit;
    };
    const up = (e: KeyboardEvent) => {
      const bit = KEY_BITS[e.code];
      if (bit !== undefined) held.current &= ~bit;
    };
    const release = () => (held.current = 0);
    window.addEventListener("keydown", down);
    window.addEventListener("keyup", up);
    window.addEventListener("blur", release);
    return () => {
      window.removeEventListener("keydown", down);
      window.removeEventListener("keyup", up);
      window.removeEventListener("blur", release);
    };
  }, [playing]);

  const step = () => {
    const l = live.current;
    if (!l || l.game.over) return false;
    const s = l.game.state;
    const aim = steer.current;
    if (aim && s.tick % STEER_EVERY === 0) aim.keys = steerKeys(aim, s.player.x / FP, s.player.y / FP);
    const [keys] = l.recorder.at(s.tick, [held.current | (aim?.keys ?? 0)]);
    l.game.step(keys);
    if (s.kills !== hud.kills || s.lives !== hud.lives || s.over || s.tick % 10 === 0)
      setHud({ kills: s.kills, lives: s.lives, ticks: s.tick });
    if (l.game.over) void skill.submit({ game: "dot-battle", inputs: l.recorder.events, claimedKills: l.game.result().kills });
    return !l.game.over;
  };

  const draw = () => {
    const el = canvas.current;
    if (!el) return;
    const ctx = prepareCanvas(el, ARENA_WIDTH, ARENA_HEIGHT);
    const game = live.current?.game ?? null;
    if (ctx) drawBattle(ctx, game);
    el.dataset.tick = String(game?.state.tick ?? 0);
    el.dataset.kills = String(game?.state.kills ?? 0);
    el.dataset.lives = String(game?.state.lives ?? LIVES);
    el.dataset.over = String(game?.over ?? false);
  };

  useFixedStep(playing, step, draw);

  const aimAt = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!steer.current) return;
    const rect = e.currentTarget.getBoundingClientRect();
    steer.current.x = clamp(((e.clientX - rect.left) / rect.width) * ARENA_WIDTH, 0, ARENA_WIDTH);
    steer.current.y = clamp(
      ((e.clientY - rect.top) / rect.height) * ARENA_HEIGHT - (e.pointerType === "touch" ? TOUCH_LEAD : 0),
      0,
      ARENA_HEIGHT,
    );
  };

  const seconds = Math.ceil((DOT_BATTLE_ROUND_TICKS - hud.ticks) / TICKS_PER_SECOND);
  const over = skill.outcome?.kind === "rewarded" ? skill.outcome.answer : null;
  return (
    <SkillFrame
      table={props}
      skill={skill}
      pays={`1 kill = ${DOT_BATTLE_COINS_PER_KILL} coin`}
      controls="Arrow keys or WASD to move, Shift to focus; on a touch screen, drag to steer."
      replay={{ input: "moves", pays: "the kills its replay counts" }}
      rules={
        <>
          <p>
            A bullet-hell arena: your ship fires on its own. Move to dodge the enemies' bullets and line up your shots. Only the white core
            of your ship can be hit; hold Shift (focus) to move slowly and shoot a tighter spread.
          </p>
          <p>
            Every enemy you destroy is a kill, and 1 kill = {DOT_BATTLE_COINS_PER_KILL} coin. The round ends when your {LIVES} lives are
            gone, or after {DOT_BATTLE_ROUND_TICKS / TICKS_PER_SECOND} seconds. Your best kills go on the Kills board.
          </p>
        </>
      }
      stats={
        <>
          <Stat label="Kills" value={hud.kills} testId="stat-kills" tone="text-warning" />
          <Stat label="Lives" value={hud.lives} testId="stat-lives" tone="text-cyan-800 dark:text-cyan-300" />
          <Stat label="Time" value={`${seconds}s`} testId="stat-time" />
        </>
      }
      board={{
        title: "Kill records",
        path: "/game/dot-battle/leaderboard",
        empty: "No kill records yet. Play Dot Battle to set a record!",
        error: "Failed to load kill records. Please try again later.",
        value: (e) => `${Number(e.kills)} kills`,
      }}
    >
      <div className="relative">
        <ArenaCanvas
          canvasRef={canvas}
          testId="battle-canvas"
          label="Dot Battle arena"
          playing={playing}
          draw={draw}
          onPress={(e) => {
            steer.current = { x: 0, y: 0, keys: 0 };
            aimAt(e);
          }}
          onMove={aimAt}
          onRelease={() => (steer.current = null)}
        />
        <ArenaOverlay
          skill={skill}
          title="Dot Battle"
          hint="Dodge the bullets, destroy the dots. 1 kill = 1 coin."
          over={
            <>
              <p className="text-xl font-black text-foreground">Game over</p>
              <p className="mt-1 text-sm text-muted-foreground">
                {skill.phase === "submitting"
                  ? "The server is replaying your round…"
                  : over
                    ? `${over.kills} kill${over.kills === 1 ? "" : "s"} · +${over.reward} coin${over.reward === 1 ? "" : "s"}`
                    : "No coins this round."}
              </p>
            </>
          }
        />
      </div>
    </SkillFrame>
  );
}

/** The keys that move the ship towards the pointer, axis by axis. */
function steerKeys(aim: { x: number; y: number }, x: number, y: number): number {
  let keys = 0;
  if (aim.x > x + STEER_DEAD_ZONE) keys |= KEY_RIGHT;
  else if (aim.x < x - STEER_DEAD_ZONE) keys |= KEY_LEFT;
  if (aim.y > y + STEER_DEAD_ZONE) keys |= KEY_DOWN;
  else if (aim.y < y - STEER_DEAD_ZONE) keys |= KEY_UP;
  return keys;
}
