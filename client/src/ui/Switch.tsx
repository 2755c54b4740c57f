import * as RadixSwitch from "@radix-ui/react-switch";
import { useId } from "react";

interface SwitchProps {
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  label: string;
  /** one line under the switch saying what it does; also the switch's accessible description */
  description?: string;
  disabled?: boolean;
}

/**
 * A labelled on/off switch, 32 px tall: a touch target a thumb can hit. Its label names it for assistive
 * technology (`aria-labelledby`, besides the label's `for`), and its description describes it.
 */
export function Switch({ checked, onCheckedChange, label, description, disabled }: SwitchProps) {
  const id = useId();
  return (
    <div>
      <div className="flex items-center gap-3">
        <RadixSwitch.Root
          id={id}
          checked={checked}
          onCheckedChange={onCheckedChange}
          disabled={disabled}
          aria-labelledby={`${id}-label`}
          aria-describedby={description ? `${id}-description` : undefined}
          className="relative h-8 w-14 shrink-0 rounded-full bg-muted transition-colors data-[state=checked]:bg-primary data-[state=checked]:border-primary-edge disabled:opacity-50 border border-border"
        >
          <RadixSwitch.Thumb className="block h-6 w-6 translate-x-1 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.625rem]" />
        </RadixSwitch.Root>
        <label id={`${id}-label`} htmlFor={id} className="text-sm font-medium select-none">
          {label}
        </label>
      </div>
      {description && (
        <p id={`${id}-description`} className="mt-1 text-xs text-muted-foreground">
          {description}
        </p>
      )}
    </div>
  );
}
