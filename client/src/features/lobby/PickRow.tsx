import type { ReactNode } from "react";
import type { GameDefinition } from "@casino/common/catalogue";
import { useLobby } from "../../store/lobby";
import { playSound } from "../../ui/sounds";
import { cn } from "../../ui/cn";
import { GameArt } from "./GameArt";

/** The height of a row's button, and of the line a row shows while it holds no game: a row never changes height. */
export const PICK_HEIGHT = "h-14";

/**
 * One compact row of the lobby above the catalogue (Most Played, Recently played, Favourites): a small
 * heading, then the games as one line of buttons that scrolls sideways when it is longer than the
 * screen, so that on a phone the catalogue starts on the first screen however many games it holds.
 */
export function PickRow({
  id,
  title,
  icon,
  testId,
  className,
  hidden,
  children,
}: {
  /** the heading's id, which labels the section */
  id: string;
  title: string;
  icon: ReactNode;
  testId?: string;
  className?: string;
  /** laid out but not shown (its place kept while what it lists loads) */
  hidden?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      data-testid={testId}
      className={cn("mb-4 min-w-0", hidden && "invisible", className)}
      aria-hidden={hidden || undefined}
    >
      <h2 id={id} className="mb-1.5 flex items-center gap-2 text-base font-bold">
        {icon} {title}
      </h2>
      {children}
    </section>
  );
}

/**
 * The line of a row's games. On a phone one line, swiped sideways, its scroll bar hidden (a bar that
 * came and went with the games' count would move the catalogue under it); from the small breakpoint up,
 * where a mouse cannot swipe, the line wraps instead.
 */
export function PickList({ children }: { children: ReactNode }) {
  return (
    <ul className="-mx-3 flex snap-x gap-2 overflow-x-auto px-3 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0">
      {children}
    </ul>
  );
}

/** One game of a row: its illustration, title and a line under it; opens the game. */
export function PickButton({
  game,
  testId,
  label,
  detail,
}: {
  game: GameDefinition;
  testId: string;
  /** the button's accessible name */
  label: string;
  detail?: ReactNode;
}) {
  const openGame = useLobby((s) => s.openGame);
  return (
    <li data-testid={testId} className="w-40 shrink-0 snap-start sm:w-52">
      <button
        className={cn(
          PICK_HEIGHT,
          "flex w-full items-center gap-2 rounded-xl border border-border bg-card p-1.5 pr-2 text-left hover:border-primary/60",
        )}
        onClick={() => {
          playSound("click");
          openGame(game.id);
        }}
        aria-label={label}
      >
        <GameArt id={game.id} className="h-full w-16 shrink-0 overflow-hidden rounded-lg" />
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-semibold leading-tight">{game.title}</span>
          {detail && <span className="flex items-center gap-1 whitespace-nowrap text-xs text-muted-foreground">{detail}</span>}
        </span>
      </button>
    </li>
  );
}
