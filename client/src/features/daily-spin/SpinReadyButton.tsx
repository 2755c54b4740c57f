import { Gift } from "lucide-react";
import { useLobby } from "../../store/lobby";
import { useSpinAvailability } from "./useSpinAvailability";

/** In the header while the daily spin is unclaimed: a marked gift that opens the Daily Spin tab. */
export function SpinReadyButton() {
  const { ready } = useSpinAvailability();
  const setTab = useLobby((s) => s.setTab);
  if (!ready) return null;
  return (
    <button
      type="button"
      onClick={() => setTab("daily")}
      aria-label="Daily spin ready"
      data-testid="spin-ready"
      className="relative grid h-10 w-10 place-items-center rounded-full text-primary-ink hover:bg-muted"
    >
      <Gift className="h-5 w-5" aria-hidden />
      <SpinReadyDot />
    </button>
  );
}

/** The dot that marks an unclaimed spin (on the header's gift and on the Spin tab). */
export function SpinReadyDot() {
  return <span className="absolute right-1.5 top-1.5 h-2.5 w-2.5 rounded-full bg-destructive ring-2 ring-background" aria-hidden />;
}
