import { useState, type ReactNode } from "react";
import { MotionConfig } from "motion/react";
import { Zap } from "lucide-react";
import { useSettings } from "../../store/settings";
import { useFastReveal } from "../../ui/useReducedMotion";
import type { GameTableProps } from "../contract";
import { useInstantAnimations } from "./fast-reveal";
import { GameHelp, type HelpContent } from "./GameHelp";
import { LiveFeed, MyBets } from "./MyBets";

/**
 * The frame every table shares: the bet panel beside the table (below it on a phone), the game's help,
 * then "My bets" and the live feed (or the lists the table gives instead), and the Turbo switch (this device's choice: results show at once,
 * without their reveal animation; an auto-bet runs in turbo whatever it says). Animations follow the
 * player's settings and the system's reduced-motion wish.
 */
export function GameFrame(props: {
  table: GameTableProps;
  panel: (showHelp: () => void) => ReactNode;
  help: HelpContent;
  children: ReactNode;
  /**
   * the lists under the table in place of "My bets" and the live feed: a shared room's table lists the
   * round's bets with "My bets", not the player's bets twice
   */
  lists?: ReactNode;
}) {
  const { table, panel, help, children } = props;
  const [helpOpen, setHelpOpen] = useState(false);
  const fast = useFastReveal();
  useInstantAnimations(fast);
  return (
    <MotionConfig reducedMotion={fast ? "always" : "user"}>
      <section
        data-testid={`table-${table.game.id}`}
        aria-label={`${table.game.title} table`}
        className="mx-auto flex w-full max-w-6xl flex-col gap-3 text-foreground sm:gap-4 sm:p-4"
      >
        <div className="flex flex-col-reverse gap-4 lg:flex-row">
          <aside className="w-full shrink-0 lg:w-80">
            {panel(() => setHelpOpen(true))}
            <TurboSwitch />
          </aside>
          <div
            data-testid="game-felt"
            className="relative min-h-[320px] min-w-0 flex-1 overflow-hidden rounded-xl bg-felt p-2 ring-1 ring-border sm:p-5"
          >
            {children}
          </div>
        </div>
        <div className="grid gap-4 lg:grid-cols-2">
          {props.lists ?? (
            <>
              <MyBets game={table.game.id} session={table.session} />
              <LiveFeed session={table.session} />
            </>
          )}
        </div>
        <GameHelp game={table.game} open={helpOpen} onClose={() => setHelpOpen(false)} content={help} />
      </section>
    </MotionConfig>
  );
}

/** Turbo: skips the result animations on this device (kept in its storage). */
export function TurboSwitch() {
  const turbo = useSettings((s) => s.turbo);
  const setTurbo = useSettings((s) => s.setTurbo);
  return (
    <button
      type="button"
      role="switch"
      aria-checked={turbo}
      data-testid="turbo-toggle"
      onClick={() => setTurbo(!turbo)}
      title="Show results at once, without their animation"
      className={`mt-2 flex min-h-8 w-full items-center justify-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-semibold ring-1 ${
        turbo ? "bg-primary/15 text-primary-ink ring-primary/50" : "bg-muted text-muted-foreground ring-border hover:text-foreground"
      }`}
    >
      <Zap className="h-4 w-4" aria-hidden /> Turbo <span aria-hidden>{turbo ? "on" : "off"}</span>
    </button>
  );
}
