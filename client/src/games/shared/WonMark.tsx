import { Check } from "lucide-react";

/** The tick on a spot the last outcome won: the highlight's sign that does not rely on colour. */
export function WonMark() {
  return (
    <span
      className="won-mark pointer-events-none absolute left-0.5 top-0.5 grid h-4 w-4 place-items-center rounded-full bg-positive text-background"
      data-testid="won-mark"
      aria-hidden
    >
      <Check className="h-3 w-3" strokeWidth={3} />
    </span>
  );
}
