import { useState } from "react";
import { MotionConfig, motion } from "motion/react";
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
          <div
            role="tablist"
            aria-label="Crash mode"
            className="mx-2 flex gap-1 self-start rounded-xl sm:mx-4 bg-muted p-1 ring-1 ring-border"
          >
            {tabs.map((tab) => (
              <button
                key={tab.id}
                role="tab"
                type="button"
                aria-selected={mode === tab.id}
                onClick={() => setMode(tab.id)}
                className="relative min-h-8 rounded-lg px-4 py-1.5 text-sm font-semibold"
              >
                {mode === tab.id && (
                  <motion.span layoutId="crash-mode" className="absolute inset-0 rounded-lg bg-card shadow-sm ring-1 ring-border" />
                )}
                <span className="relative">{tab.label}</span>
              </button>
            ))}
          </div>
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
