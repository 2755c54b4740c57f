import { useEffect, useRef, useState } from "react";
import { Coins } from "lucide-react";
import { BALANCE_CHANGE_INDICATOR_MS } from "@casino/common/constants";
import { formatCoins, formatNet } from "@casino/common/format";
import { shownBalance, useRoom, type BalanceNote } from "../../store/room";
import { useReducedMotion } from "../../ui/useReducedMotion";
import { cn } from "../../ui/cn";

const CATCH_UP_MS = 300;

/** What the change chip tells: a round's net figure, a stake leaving, or a plain change of the balance. */
interface Chip {
  id: number;
  kind: BalanceNote["kind"] | "change";
  amount: number;
}

const chipText = (chip: Chip): string => (chip.kind === "stake" ? `${formatCoins(chip.amount)} staked` : formatNet(chip.amount));
const chipTone = (chip: Chip): string =>
  chip.kind === "stake" || chip.amount === 0
    ? "bg-muted text-foreground ring-1 ring-border"
    : chip.amount > 0
      ? "bg-positive text-background"
      : "bg-destructive text-destructive-foreground";

/**
 * The header balance (spec: Balance display, with issue 20's instant feedback): on a change a chip
 * shows for 2 s while the shown value counts to the new one at once (in 0.3 s; instantly with animations
 * off). What it shows is the server's balance less the payouts whose result no table has shown yet, and
 * it waits while a bet is on its way: a stake leaves it when the server accepts the bet, a payout
 * reaches it when the table shows the result, never before. The chip tells a round by its net figure,
 * the one its result line, toast and history tell (docs/architecture/money-path.md, "One figure per
 * round"): "10 staked" (neutral) when a stake leaves, then the round's "+9", "-10" or "0" when its result
 * shows, green for a gain, red for a loss; any other change as its signed amount. `data-testid="balance"`
 * holds the shown value alone, with thousands separators; `data-testid="balance-delta"` the chip
 * (`data-kind`: net, stake or change).
 */
export function BalanceDisplay() {
  const target = useRoom(shownBalance);
  const held = useRoom((s) => s.balanceHeld || s.inFlight > 0);
  const balanceNote = useRoom((s) => s.balanceNote);
  const reduced = useReducedMotion();
  const [shown, setShown] = useState<number | null>(target);
  const [delta, setDelta] = useState<Chip | null>(null);
  const shownRef = useRef<number | null>(target);
  const deltaRef = useRef<Chip | null>(null);
  // the last note told (or given up): each note is told once
  const toldNote = useRef(balanceNote?.id ?? 0);
  const changes = useRef(0);

  useEffect(() => {
    if (target === null || held) return;
    const from = shownRef.current;
    const tell = (chip: Omit<Chip, "id">) => {
      changes.current += 1;
      deltaRef.current = { ...chip, id: changes.current };
      setDelta(deltaRef.current);
    };
    const pending = balanceNote && balanceNote.id !== toldNote.current ? balanceNote : null;
    const change = from === null ? 0 : target - from;
    if (pending && change !== 0) {
      // the change the note explains, or another one: then the note is given up, and the change told plainly
      toldNote.current = pending.id;
      tell(pending.change === change ? pending : { kind: "change", amount: change });
    } else if (pending) {
      // a note whose change is already shown (a shared room's payout came first, still on its chip) or
      // moves nothing (a loss): told now; one whose change is still to come waits for it
      const told = deltaRef.current;
      const first = pending.change !== 0 && told?.kind === "change" && told.amount === pending.change;
      if (pending.change === 0 || first) {
        toldNote.current = pending.id;
        tell(pending);
      }
    } else if (change !== 0) {
      tell({ kind: "change", amount: change });
    }
    const show = (v: number) => {
      shownRef.current = v;
      setShown(v);
    };
    if (from === null || from === target) {
      show(target);
      return;
    }
    if (reduced) {
      show(target);
      return;
    }
    let frame = 0;
    const start = performance.now();
    const step = (now: number) => {
      // a frame's time can be a little before the change was seen
      const t = Math.min(1, Math.max(0, (now - start) / CATCH_UP_MS));
      const eased = 1 - (1 - t) ** 3;
      show(t >= 1 ? target : Math.round(from + (target - from) * eased));
      if (t < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => {
      cancelAnimationFrame(frame);
      // a newer change starts from where this one was; a cut-short count lands on its target first
      if (shownRef.current !== target) show(target);
    };
  }, [target, held, reduced, balanceNote]);

  // The change's amount shows for 2 s (a newer change replaces it and starts its own 2 s).
  useEffect(() => {
    if (!delta) return;
    const timer = setTimeout(() => {
      if (deltaRef.current?.id === delta.id) deltaRef.current = null;
      setDelta((d) => (d?.id === delta.id ? null : d));
    }, BALANCE_CHANGE_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [delta]);

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
      {delta !== null && (
        <span
          key={delta.id}
          data-testid="balance-delta"
          data-kind={delta.kind}
          className={cn(
            "animate-rise absolute left-1/2 top-full mt-1 -translate-x-1/2 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-bold shadow",
            chipTone(delta),
          )}
        >
          {chipText(delta)}
        </span>
      )}
    </div>
  );
}
