import { useState } from "react";

/** A number the player types for the bet (a dice target, a limbo target, a crash cash-out). */
export interface TargetState {
  text: string;
  setText(text: string): void;
  /** the field read as a number (NaN while it cannot be read) */
  value: number;
  /** why the field cannot be read ("Enter a target from …"), or null; the engine judges the range */
  problem: string | null;
}

/** The text of a target field, read as a number; `unreadable` is the message while it is not one. */
export function useTarget(initial: string, unreadable: string): TargetState {
  const [text, setText] = useState(initial);
  const value = text.trim() === "" ? Number.NaN : Number(text);
  return { text, setText, value, problem: Number.isFinite(value) ? null : unreadable };
}

/** The labelled input of a target, for the bet panel's game controls. */
export function TargetField(props: { label: string; testId: string; target: TargetState; disabled: boolean; placeholder?: string }) {
  const { label, testId, target, disabled, placeholder } = props;
  return (
    <LabelledInput
      label={label}
      testId={testId}
      inputMode="decimal"
      value={target.text}
      onChange={target.setText}
      placeholder={placeholder}
      disabled={disabled}
      className="rounded-lg border border-border bg-background px-3 py-2 tabular-nums text-foreground outline-none focus:border-primary disabled:opacity-60"
    />
  );
}

/** A number field under its words, the panels' way; `ariaLabel` names it when the words shown say less (by default they name it). */
export function LabelledInput(props: {
  label: string;
  ariaLabel?: string;
  testId: string;
  inputMode: "decimal" | "numeric";
  value: string;
  onChange(text: string): void;
  placeholder?: string;
  disabled: boolean;
  className: string;
}) {
  return (
    <label className="flex flex-col gap-1 text-xs text-muted-foreground">
      {props.label}
      <input
        aria-label={props.ariaLabel ?? props.label}
        data-testid={props.testId}
        inputMode={props.inputMode}
        value={props.value}
        placeholder={props.placeholder}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        className={props.className}
      />
    </label>
  );
}
