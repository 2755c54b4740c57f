import { useState } from "react";
import { MotionConfig } from "motion/react";
import { ModeTabs } from "../../ui/ModeTabs";
import type { GameTableProps } from "../contract";
import { SoloBlackjack } from "./solo";
import { SharedTable } from "./table/SharedTable";

type Mode = "solo" | "table";

/**
 * Blackjack: alone against the dealer on the player's own provably-fair stream, or at the shared table
 * of the activity instance (a public table outside Discord): seven seats, one dealer, one shoe.
 */
export default function Blackjack(props: GameTableProps) {
  const shared = props.sharedTable ?? null;
  const [mode, setMode] = useState<Mode>(props.startShared && shared ? "table" : "solo");
  // Asked for the table again while the game is open (the strip's "Join"): to the table (state adjusted
  // during render, as React advises for state that follows a prop).
  const asks = props.sharedAsks ?? 0;
  const [seenAsks, setSeenAsks] = useState(asks);
  if (asks !== seenAsks) {
    setSeenAsks(asks);
    if (shared) setMode("table");
  }
  const tabs: { id: Mode; label: string }[] = [
    { id: "solo", label: "Play solo" },
    { id: "table", label: "Join the table" },
  ];
  return (
    <MotionConfig reducedMotion="user">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-2 text-foreground">
        {shared && (
          <ModeTabs
            label="Blackjack mode"
            tabs={tabs}
            value={mode}
            onChange={setMode}
            layoutId="blackjack-mode"
            testIdPrefix="blackjack-mode"
            // It leads the page on every screen, as crash's does: the player chooses before the first bet.
            className="mx-2 sm:mx-4"
          />
        )}
        {mode === "table" && shared ? <SharedTable shared={shared} table={props} /> : <SoloBlackjack {...props} />}
      </div>
    </MotionConfig>
  );
}
