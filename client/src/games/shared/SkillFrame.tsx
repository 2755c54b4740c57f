import { ANONYMOUS_NAME } from "@casino/common/constants";
import { useEffect, useState, type PointerEvent, type ReactNode, type RefObject } from "react";
import { MotionConfig, motion } from "motion/react";
import { formatCoins, formatNet, formatRecordTime, netCoinsText } from "@casino/common/format";
import { LEADERBOARD_REFRESH_MS, SKILL_ROUNDS_PER_DAY } from "@casino/common/constants";
import type { GameTableProps } from "../contract";
import { api } from "../../net/api";
import { usePolling } from "../../net/usePolling";
import { useLeaderboard } from "../../store/leaderboard";
import { useSession } from "../../store/session";
import { ActionBar } from "./ActionBar";
import { Dialog } from "./Dialog";
import type { SkillOutcome, SkillRoundState } from "./skill-round";

/**
 * The frame of the two skill tables, laid out like every other table: the panel beside the arena
 * (below it on a phone), then the game's record board and the rounds of this visit. The panel holds
 * the start button, the live figures of the round, the server's answer and today's count against the
 * daily cap.
 */
export function SkillFrame(props: {
  table: GameTableProps;
  skill: SkillRoundState;
  /** what a round pays, in the spec's words */
  pays: string;
  rules: ReactNode;
  /** the closing rule, how the server checks a round: what it replays ("moves") and what it pays ("the kills its replay counts") */
  replay: { input: string; pays: string };
  /** the live figures of the round (kills, lives, time…) */
  stats: ReactNode;
  /** how to play with the keys or the pointer, one line */
  controls: string;
  board: RecordBoardProps;
  /** the arena: the canvas and its overlays */
  children: ReactNode;
}) {
  const { table, skill, pays, rules, replay, stats, controls, board, children } = props;
  const [helpOpen, setHelpOpen] = useState(false);
  const history = visitRows(skill.past);
  const canStart = skill.phase === "idle" || skill.phase === "done";
  const capReached = skill.today !== null && skill.today.playedToday >= skill.today.dailyCap;
  const label = { idle: "Start", starting: "Starting…", playing: "Playing…", submitting: "Checking your score…", done: "Play again" }[
    skill.phase
  ];
  return (
    <MotionConfig reducedMotion="user">
      <section
        data-testid={`table-${table.game.id}`}
        data-phase={skill.phase}
        aria-label={`${table.game.title} table`}
        className="mx-auto flex w-full max-w-6xl flex-col gap-3 text-foreground sm:gap-4 sm:p-4"
      >
        <div className="flex flex-col-reverse gap-4 lg:flex-row">
          <aside className="w-full shrink-0 lg:w-80">
            <div
              className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4 text-sm text-foreground"
              data-testid="skill-panel"
            >
              <div className="flex items-center justify-between gap-2">
                <span className="font-semibold text-muted-foreground">{table.game.title}</span>
                <button
                  type="button"
                  data-testid="help-button"
                  onClick={() => setHelpOpen(true)}
                  className="min-h-8 rounded-md px-2 py-1 text-muted-foreground hover:bg-muted"
                >
                  Rules
                </button>
              </div>
              <p className="rounded-lg bg-muted px-3 py-2 text-muted-foreground">
                <span className="font-semibold text-warning">{pays}</span>
                <span className="mt-0.5 block text-xs text-muted-foreground">No bet: rewards only. {controls}</span>
              </p>
              <div className="grid grid-cols-3 gap-2" data-testid="skill-stats">
                {stats}
              </div>
              <ActionBar>
                <button
                  type="button"
                  data-testid="skill-start"
                  disabled={!canStart || capReached}
                  onClick={() => void skill.start()}
                  className="rounded-lg bg-primary inset-ring-2 inset-ring-primary-edge py-3 text-base font-bold text-primary-foreground shadow hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-50"
                >
                  {label}
                </button>
              </ActionBar>
              <p data-testid="skill-error" role="alert" className="min-h-5 text-xs font-medium text-destructive">
                {skill.startError ??
                  (capReached && canStart ? `You have played all ${skill.today!.dailyCap} skill games for today; come back tomorrow` : "")}
              </p>
              <OutcomeCard outcome={skill.outcome} />
              <DailyCount today={skill.today} />
            </div>
          </aside>
          <div className="relative flex min-h-[320px] flex-1 items-center justify-center overflow-hidden rounded-xl bg-felt p-2 ring-1 ring-border sm:p-5">
            {children}
          </div>
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          <RecordBoard {...board} />
          <VisitRounds rounds={history} />
        </div>
        <Dialog open={helpOpen} onClose={() => setHelpOpen(false)} title={`${table.game.title}: how to play`} testId="help-dialog" wide>
          <div className="flex flex-col gap-3 text-sm leading-relaxed text-muted-foreground">
            {rules}
            <p>
              The server replays your {replay.input} from the round's seed and pays only {replay.pays}. Skill games are limited to{" "}
              {SKILL_ROUNDS_PER_DAY} a day (Dot Battle and Connect the Dots together).
            </p>
          </div>
        </Dialog>
      </section>
    </MotionConfig>
  );
}

/** One figure of the round in the panel. */
export function Stat(props: { label: string; value: ReactNode; testId: string; tone?: string }) {
  return (
    <div className="rounded-lg bg-muted px-2 py-1.5 text-center">
      <div className="text-[11px] uppercase tracking-wide text-muted-foreground">{props.label}</div>
      <div data-testid={props.testId} className={`font-mono text-lg font-bold tabular-nums ${props.tone ?? "text-foreground"}`}>
        {props.value}
      </div>
    </div>
  );
}

/** The server's answer to the last round, exactly as it came. */
function OutcomeCard({ outcome }: { outcome: SkillOutcome | null }) {
  if (!outcome) return null;
  if (outcome.kind !== "rewarded") {
    return (
      <motion.div
        initial={{ opacity: 0, y: 6 }}
        animate={{ opacity: 1, y: 0 }}
        data-testid="skill-result"
        data-kind={outcome.kind}
        role="status"
        className={`rounded-lg px-3 py-2 ${outcome.kind === "refused" ? "bg-rose-950/70 text-rose-200 ring-1 ring-rose-500/40" : "bg-muted text-muted-foreground"}`}
      >
        <p className="font-semibold">{outcome.kind === "refused" ? "No coins: the server refused this round" : "Round over"}</p>
        <p data-testid="skill-result-message" className="mt-0.5 text-xs">
          {outcome.message}
        </p>
      </motion.div>
    );
  }
  const a = outcome.answer;
  return (
    <motion.div
      initial={{ opacity: 0, y: 6 }}
      animate={{ opacity: 1, y: 0 }}
      data-testid="skill-result"
      data-kind="rewarded"
      data-reward={a.reward}
      data-kills={a.kills ?? ""}
      data-completion-ms={a.completionMs ?? ""}
      data-balance={a.balance}
      role="status"
      className={`rounded-lg px-3 py-2 ring-1 ${a.reward > 0 ? "bg-positive/10 text-foreground ring-positive/50" : "bg-muted text-foreground ring-border"}`}
    >
      <p className="text-xs text-muted-foreground">Verified by the server</p>
      <p className="text-base font-bold">
        {a.kills !== null && `${a.kills} kill${a.kills === 1 ? "" : "s"}`}
        {a.completionMs !== null && `Completed in ${formatRecordTime(a.completionMs)}`}
      </p>
      <p className="mt-0.5">
        {a.reward > 0 ? (
          <span className="font-semibold text-positive">{netCoinsText(a.reward)}</span>
        ) : (
          <span className="text-muted-foreground">No coins this time</span>
        )}
        <span className="ml-2 text-xs text-muted-foreground">Balance {formatCoins(a.balance)}</span>
      </p>
    </motion.div>
  );
}

function DailyCount({ today }: { today: { playedToday: number; dailyCap: number } | null }) {
  if (!today) return null;
  const left = Math.max(0, today.dailyCap - today.playedToday);
  return (
    <div
      data-testid="skill-daily"
      data-played={today.playedToday}
      data-cap={today.dailyCap}
      data-left={left}
      className="text-xs text-muted-foreground"
    >
      <div className="mb-1 flex justify-between">
        <span>Skill games today</span>
        <span className="tabular-nums">
          {today.playedToday} / {today.dailyCap} · {left} left
        </span>
      </div>
      <div className="h-1.5 overflow-hidden rounded-full bg-muted">
        <div
          className="h-full rounded-full bg-amber-400"
          style={{ width: `${Math.min(100, (today.playedToday / today.dailyCap) * 100)}%` }}
        />
      </div>
    </div>
  );
}

export interface RecordBoardProps {
  title: string;
  path: string;
  empty: string;
  error: string;
  value(entry: Record<string, unknown>): string;
}

interface BoardEntry {
  playerId: string;
  rank: number;
  username: string;
  anonymousMode: boolean;
  [key: string]: unknown;
}

const BOARD_ROWS = 10;

/** The game's board (Speed or Kills), as the lobby's leaderboard shows it, polled the same way. */
function RecordBoard({ title, path, empty, error, value }: RecordBoardProps) {
  const version = useLeaderboard((s) => s.version);
  const me = useSession((s) => s.player?.id ?? null);
  const board = usePolling(
    async () => (await api<{ entries: BoardEntry[] }>(`${path}?limit=${BOARD_ROWS}`)).entries,
    LEADERBOARD_REFRESH_MS,
    [path, version],
  );
  return (
    <section className="rounded-xl bg-card p-3 text-xs text-muted-foreground" data-testid="skill-board" aria-label={title}>
      <h2 className="mb-2 text-sm font-semibold text-foreground">{title}</h2>
      {board.error && !board.data ? (
        <p className="text-destructive">{error}</p>
      ) : !board.data ? (
        <p className="text-muted-foreground">Loading…</p>
      ) : board.data.length === 0 ? (
        <p className="text-muted-foreground">{empty}</p>
      ) : (
        <ol className="space-y-0.5">
          {board.data.map((e) => {
            const self = e.playerId === me;
            const hidden = e.anonymousMode && !self;
            return (
              <li
                key={e.playerId}
                data-testid="skill-board-row"
                data-player={e.playerId}
                className={`flex items-center gap-2 rounded-md px-2 py-1 ${self ? "bg-primary/15 text-foreground" : ""}`}
              >
                <span className="w-7 font-bold tabular-nums text-muted-foreground">#{e.rank}</span>
                <span className={`min-w-0 flex-1 truncate ${hidden ? "select-none blur-[3px]" : ""}`}>
                  {hidden ? ANONYMOUS_NAME : e.username}
                </span>
                {self && <span className="text-[10px] font-bold text-positive">(You)</span>}
                <span data-testid="skill-board-value" className="font-mono font-semibold tabular-nums text-foreground">
                  {value(e)}
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

interface VisitRound {
  key: string;
  at: Date;
  text: string;
  coins: string;
  tone: string;
}

/** The answers of this visit's rounds, newest first. */
function visitRows(past: SkillRoundState["past"]): VisitRound[] {
  return past.map(({ at, outcome }) =>
    outcome.kind === "rewarded"
      ? {
          key: outcome.answer.roundId,
          at,
          text: outcome.answer.kills !== null ? `${outcome.answer.kills} kills` : formatRecordTime(outcome.answer.completionMs ?? 0),
          coins: formatNet(outcome.answer.reward),
          tone: outcome.answer.reward > 0 ? "text-positive" : "text-muted-foreground",
        }
      : {
          key: `${at.getTime()}`,
          at,
          text: outcome.kind === "refused" ? "Refused" : "Not finished",
          coins: "0",
          tone: "text-muted-foreground",
        },
  );
}

function VisitRounds({ rounds }: { rounds: VisitRound[] }) {
  return (
    <section className="rounded-xl bg-card p-3 text-xs text-muted-foreground" aria-label="Your rounds">
      <h2 className="mb-2 text-sm font-semibold text-foreground">Your rounds</h2>
      {rounds.length === 0 ? (
        <p className="text-muted-foreground">No rounds played on this visit yet.</p>
      ) : (
        <table className="w-full tabular-nums">
          <tbody>
            {rounds.map((r) => (
              <tr key={r.key} className="border-b border-border">
                <td className="py-1">{r.at.toLocaleTimeString("en-GB")}</td>
                <td className="py-1 text-right">{r.text}</td>
                <td className={`py-1 text-right font-semibold ${r.tone}`}>{r.coins} coins</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The arena's canvas: portrait 3:4, as large as the screen allows, never stretched. */
const ARENA_CANVAS_STYLE = {
  aspectRatio: "3 / 4",
  height: "min(640px, calc(100dvh - 150px), calc((100vw - 2.5rem) * 4 / 3))",
  width: "auto",
} as const;

type ArenaPointer = (e: PointerEvent<HTMLCanvasElement>) => void;

/**
 * The arena's canvas, and how it takes the pointer: a press while a round is `playing` captures the
 * pointer (no scrolling, no context menu) and goes to `onPress`; moves go to `onMove`, and the release
 * or its cancel to `onRelease`. The canvas is drawn again (`draw`) whenever its shown size changes
 * (rotation, window resize), so a resting board stays sharp.
 */
export function ArenaCanvas(props: {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  testId: string;
  label: string;
  playing: boolean;
  draw(): void;
  onPress: ArenaPointer;
  onMove: ArenaPointer;
  onRelease: ArenaPointer;
}) {
  const { canvasRef, playing, draw, onPress, onRelease } = props;
  useEffect(() => {
    const el = canvasRef.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => draw());
    observer.observe(el);
    return () => observer.disconnect();
  });
  return (
    <canvas
      ref={canvasRef}
      data-testid={props.testId}
      aria-label={props.label}
      style={ARENA_CANVAS_STYLE}
      className="block max-w-full touch-none select-none rounded-lg shadow-2xl ring-1 ring-border"
      onPointerDown={(e) => {
        if (!playing) return;
        e.preventDefault();
        e.currentTarget.setPointerCapture?.(e.pointerId);
        onPress(e);
      }}
      onPointerMove={props.onMove}
      onPointerUp={onRelease}
      onPointerCancel={onRelease}
      onContextMenu={(e) => e.preventDefault()}
    />
  );
}

/** What the arena shows over the canvas when no round is running: the invitation, or the round's end. */
export function ArenaOverlay(props: { skill: SkillRoundState; title: string; hint: string; over: ReactNode }) {
  const { skill, title, hint, over } = props;
  if (skill.phase === "playing") return null;
  const capReached = skill.today !== null && skill.today.playedToday >= skill.today.dailyCap;
  return (
    // A finished round keeps its board in sight: the card sits at the bottom.
    <div
      className={`absolute inset-0 flex justify-center p-4 ${skill.phase === "done" || skill.phase === "submitting" ? "items-end pb-8" : "items-center"}`}
    >
      <motion.div
        initial={{ opacity: 0, scale: 0.96 }}
        animate={{ opacity: 1, scale: 1 }}
        className={`w-full max-w-72 rounded-2xl bg-card/90 text-center shadow-2xl ring-1 ring-border backdrop-blur-sm ${skill.phase === "idle" || skill.phase === "starting" ? "p-5" : "p-4"}`}
        data-testid="arena-overlay"
      >
        {skill.phase === "done" || skill.phase === "submitting" ? (
          over
        ) : (
          <>
            <p className="text-xl font-black tracking-tight text-foreground">{title}</p>
            <p className="mt-1 text-sm text-muted-foreground">{hint}</p>
          </>
        )}
        {skill.phase !== "submitting" && (
          <button
            type="button"
            data-testid="skill-start-arena"
            disabled={skill.phase === "starting" || capReached}
            onClick={() => void skill.start()}
            className="mt-3 w-full rounded-lg bg-primary inset-ring-2 inset-ring-primary-edge py-2 font-bold text-primary-foreground hover:brightness-110 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {skill.phase === "starting" ? "Starting…" : skill.phase === "done" ? "Play again" : "Start"}
          </button>
        )}
      </motion.div>
    </div>
  );
}
