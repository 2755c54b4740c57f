import { useId } from "react";
import type { GameId } from "@casino/common/catalogue";
import { CLIENT_GAMES } from "../../games/registry";

/** The game's illustration, filling its box (16:9 drawn; a wider box crops its top and bottom edges). */
export function GameArt({ id, className }: { id: GameId; className?: string }) {
  const { hue, art } = CLIENT_GAMES[id].lobby;
  const gradient = useId();
  return (
    <svg
      viewBox="0 0 160 90"
      preserveAspectRatio="xMidYMid slice"
      className={className}
      aria-hidden
      focusable="false"
      data-testid={`game-art-${id}`}
    >
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={`hsl(${hue} 65% 42%)`} />
          <stop offset="1" stopColor={`hsl(${(hue + 35) % 360} 70% 24%)`} />
        </linearGradient>
      </defs>
      <rect width={160} height={90} fill={`url(#${gradient})`} />
      <circle cx={140} cy={12} r={34} fill="#fff" opacity={0.07} />
      <circle cx={12} cy={86} r={26} fill="#fff" opacity={0.06} />
      {art}
    </svg>
  );
}
