import { useState } from "react";
import { MotionConfig } from "motion/react";
import { ModeTabs } from "../../ui/ModeTabs";
import type { GameTableProps } from "../contract";
import { SoloCrash } from "./solo";
import { SharedCrash } from "./shared/SharedCrash";

type Mode = "solo" | "together";

/**
 * Crash: alone on the player's own provably-fair stream, or together in the shared room of the activity
 * instance (the public room outside Discord), where everyone plays the same round.
 */
export default function CrashTable(props: GameTableProps) {
  const shared = props.sharedCrash ?? null;
  const [mode, setMode] = useState<Mode>("solo");
  const tabs: { id: Mode; label: string }[] = [
    { id: "solo", label: "Solo" },
    { id: "together", label: "Play together" },
  ];
  return (
    <MotionConfig reducedMotion="user">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-2 text-foreground">
        {shared && (
          <ModeTabs label="Crash mode" tabs={tabs} value={mode} onChange={setMode} layoutId="crash-mode" className="mx-2 sm:mx-4" />
        )}
        {mode === "together" && shared ? (
          <div className="p-2 sm:p-4">
            <SharedCrash shared={shared} balance={props.balance} />
          </div>
        ) : (
          <SoloCrash {...props} />
        )}
      </div>
    </MotionConfig>
  );
}
