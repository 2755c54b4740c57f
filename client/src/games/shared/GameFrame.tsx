import { useState, type ReactNode } from "react";
import { MotionConfig } from "motion/react";
import type { GameTableProps } from "../contract";
import { GameHelp, type HelpContent } from "./GameHelp";
import { LiveFeed, MyBets } from "./MyBets";

/**
 * The frame every table shares: the bet panel beside the table (below it on a phone), the game's help,
 * then "My bets" and the live feed. Animations follow the player's reduced-motion setting.
 */
export function GameFrame(props: {
  table: GameTableProps;
  panel: (showHelp: () => void) => ReactNode;
  help: HelpContent;
  children: ReactNode;
}) {
  const { table, panel, help, children } = props;
  const [helpOpen, setHelpOpen] = useState(false);
  return (
    <MotionConfig reducedMotion="user">
      <section
        data-testid={`table-${table.game.id}`}
        aria-label={`${table.game.title} table`}
        className="mx-auto flex w-full max-w-6xl flex-col gap-3 text-foreground sm:gap-4 sm:p-4"
      >
        <div className="flex flex-col-reverse gap-4 lg:flex-row">
          <aside className="w-full shrink-0 lg:w-80">{panel(() => setHelpOpen(true))}</aside>
          <div className="relative min-h-[320px] min-w-0 flex-1 overflow-hidden rounded-xl bg-felt p-2 ring-1 ring-border sm:p-5">
            {children}
          </div>
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          <MyBets game={table.game.id} session={table.session} />
          <LiveFeed session={table.session} />
        </div>
        <GameHelp game={table.game} open={helpOpen} onClose={() => setHelpOpen(false)} content={help} />
      </section>
    </MotionConfig>
  );
}
