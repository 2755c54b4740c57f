import type { ReactNode } from "react";
import type { RoundControls } from "./use-round";

/** Each tone with its own text colour, at WCAG AA in either mode. */
export const ACTION_TONES = {
  go: "bg-emerald-700 text-white hover:bg-emerald-600",
  stop: "bg-rose-700 text-white hover:bg-rose-600",
  info: "bg-sky-700 text-white hover:bg-sky-600",
  gold: "bg-amber-400 text-slate-950 hover:bg-amber-300",
  plain: "border border-border bg-muted text-foreground hover:bg-border",
} as const;

/** A button of a round in progress (hit, raise, draw, cash out…). */
export function ActionButton(props: {
  testId: string;
  onClick(): void;
  enabled: boolean;
  tone?: keyof typeof ACTION_TONES;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <button
      type="button"
      data-testid={props.testId}
      disabled={!props.enabled}
      onClick={props.onClick}
      className={`rounded-lg px-2 py-3 font-bold disabled:cursor-not-allowed disabled:opacity-40 ${ACTION_TONES[props.tone ?? "plain"]} ${props.wide ? "col-span-2" : ""}`}
    >
      {props.children}
    </button>
  );
}

/** One in-round action of a table: its button, and the action it sends in the round or what it does instead (`run`). */
export interface RoundAction {
  testId: string;
  /** the action sent to the server (`{ type: "hit" }`) */
  action?: unknown;
  run?(): void;
  enabled: boolean;
  tone?: keyof typeof ACTION_TONES;
  wide?: boolean;
  label: ReactNode;
}

/** The in-round actions of a table, two to a row. */
export function RoundActions(props: { round: RoundControls<unknown>; actions: RoundAction[] }) {
  return (
    <div className="grid grid-cols-2 gap-2">
      {props.actions.map((a) => (
        <ActionButton
          key={a.testId}
          testId={a.testId}
          tone={a.tone}
          wide={a.wide}
          enabled={a.enabled}
          onClick={() => (a.run ? a.run() : void props.round.act(a.action))}
        >
          {a.label}
        </ActionButton>
      ))}
    </div>
  );
}
