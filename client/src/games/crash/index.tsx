import { useState } from "react";
import { MotionConfig } from "motion/react";
import { ModeTabs } from "../../ui/ModeTabs";
import type { GameTableProps } from "../contract";
import { useStakeText } from "../shared/use-stake";
import { SoloCrash } from "./solo";
import { SharedCrash } from "./shared/SharedCrash";

type Mode = "live" | "instant";

/**
 * Crash: live by default, the shared round of the activity instance (the public room outside Discord)
 * that rises while everyone watches, with a cash-out by hand; or instant, a round of the player's own
 * provably-fair stream decided at once against an automatic cash-out. Without a session (so no room)
 * only the instant round is offered. Both modes share the bet amount.
 */
export default function CrashTable(props: GameTableProps) {
  const shared = props.sharedCrash ?? null;
  const [mode, setMode] = useState<Mode>("live");
  // One amount for both modes: switching keeps what the player typed.
  const amount = useStakeText();
  const tabs: { id: Mode; label: string }[] = [
    { id: "live", label: "Live" },
    { id: "instant", label: "Instant" },
  ];
  return (
    <MotionConfig reducedMotion="user">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-2 text-foreground">
        {shared && (
          <ModeTabs label="Crash mode" tabs={tabs} value={mode} onChange={setMode} layoutId="crash-mode" className="mx-2 sm:mx-4" />
        )}
        {mode === "live" && shared ? (
          <SharedCrash shared={shared} table={props} amount={amount} />
        ) : (
          <SoloCrash {...props} amount={amount} />
        )}
      </div>
    </MotionConfig>
  );
}
