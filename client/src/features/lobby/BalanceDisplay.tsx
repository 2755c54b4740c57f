import { useEffect, useRef, useState } from "react";
import { Coins } from "lucide-react";
import { BALANCE_CHANGE_INDICATOR_MS } from "@casino/common/constants";
import { formatCoins, formatDelta } from "@casino/common/format";
import { useRoom } from "../../store/room";
import { useReducedMotion } from "../../ui/useReducedMotion";
import { cn } from "../../ui/cn";

const CATCH_UP_MS = 700;

/**
 * The header balance (spec: Balance display): on a change the amount of the change shows for 2 s,
 * green with a plus for a gain, red for a loss, then the shown value counts up (or down) to the new one.
 * `data-testid="balance"` holds the shown value alone, with thousands separators.
 */
export function BalanceDisplay() {
  const target = useRoom((s) => s.balance);
  const held = useRoom((s) => s.balanceHeld);
  const reduced = useReducedMotion();
  const [shown, setShown] = useState<number | null>(target);
  const [delta, setDelta] = useState<number | null>(null);
  const shownRef = useRef<number | null>(target);

  useEffect(() => {
    if (target === null || held) return;
    const from = shownRef.current;
    const show = (v: number) => {
      shownRef.current = v;
      setShown(v);
    };
    if (from === null || from === target) {
      show(target);
      setDelta(null);
      return;
    }
    setDelta(target - from);
    let frame = 0;
    const timer = setTimeout(() => {
      if (reduced) {
        show(target);
        setDelta(null);
        return;
      }
      const start = performance.now();
      const step = (now: number) => {
        const t = Math.min(1, (now - start) / CATCH_UP_MS);
        const eased = 1 - (1 - t) ** 3;
        show(t >= 1 ? target : Math.round(from + (target - from) * eased));
        if (t < 1) frame = requestAnimationFrame(step);
        else setDelta(null);
      };
      frame = requestAnimationFrame(step);
    }, BALANCE_CHANGE_INDICATOR_MS);
    return () => {
      clearTimeout(timer);
      cancelAnimationFrame(frame);
    };
  }, [target, held, reduced]);

  return (
    <div
      className="relative flex items-center gap-1.5 rounded-full border border-border bg-muted/60 py-1.5 pl-2.5 pr-3.5"
      aria-live="polite"
    >
      <Coins className="h-4 w-4 text-gold" aria-hidden />
      <span className="sr-only">Balance:</span>
      <span data-testid="balance" className="font-mono text-sm font-bold tabular-nums sm:text-base">
        {shown === null ? "…" : formatCoins(shown)}
      </span>
      {delta !== null && delta !== 0 && (
        <span
          key={delta}
          data-testid="balance-delta"
          className={cn(
            "animate-rise absolute left-1/2 top-full mt-1 -translate-x-1/2 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-bold shadow",
            delta > 0 ? "bg-positive text-background" : "bg-destructive text-destructive-foreground",
          )}
        >
          {formatDelta(delta)}
        </span>
      )}
    </div>
  );
}
