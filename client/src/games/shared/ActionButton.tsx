import type { ReactNode } from "react";

const TONES = {
  go: "bg-emerald-600 hover:bg-emerald-500",
  stop: "bg-rose-600 hover:bg-rose-500",
  info: "bg-sky-600 hover:bg-sky-500",
  gold: "bg-amber-500 text-slate-950 hover:bg-amber-400",
  plain: "bg-muted hover:bg-border",
} as const;

/** A button of a round in progress (hit, raise, draw, cash out…). */
export function ActionButton(props: {
  testId: string;
  onClick(): void;
  enabled: boolean;
  tone?: keyof typeof TONES;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <button
      type="button"
      data-testid={props.testId}
      disabled={!props.enabled}
      onClick={props.onClick}
      className={`rounded-lg px-2 py-3 font-bold text-white disabled:cursor-not-allowed disabled:opacity-40 ${TONES[props.tone ?? "plain"]} ${props.wide ? "col-span-2" : ""}`}
    >
      {props.children}
    </button>
  );
}
