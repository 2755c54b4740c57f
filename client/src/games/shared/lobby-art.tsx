import type { ReactNode } from "react";
import type { LucideIcon } from "lucide-react";

/**
 * How a game shows in the lobby: its icon and its picture. Each game states its own in
 * client/src/games/<game>/lobby.tsx, drawn with the pieces below.
 */
export interface GameLobby {
  /** the small icon beside the game's name (game host header, most played) */
  icon: LucideIcon;
  /** the hue of the picture's background gradient */
  hue: number;
  /** the picture: a 160×90 scene drawn over the gradient */
  art: ReactNode;
}

/*
 * One illustration per game, drawn for this project as SVG (part of the project, under its licence).
 * Each is a 160×90 scene on the game's own colour; the shapes use a few fixed inks so they read the
 * same in light and dark mode. They are decoration: the tile's title names the game.
 */

export const INK = "#fff";
export const SHADE = "rgba(0,0,0,.28)";
export const GOLD = "#fcd34d";
export const RED = "#ef4444";

/** A playing card, top-left corner at (x, y), turned by `r` degrees. */
export function Card({ x, y, r = 0, label, suit, red }: { x: number; y: number; r?: number; label: string; suit: string; red?: boolean }) {
  return (
    <g transform={`rotate(${r} ${x + 15} ${y + 21})`}>
      <rect x={x + 1.5} y={y + 2} width={30} height={42} rx={4} fill={SHADE} />
      <rect x={x} y={y} width={30} height={42} rx={4} fill={INK} />
      <text x={x + 4} y={y + 12} fontSize={10} fontWeight={700} fill={red ? RED : "#111827"}>
        {label}
      </text>
      <text x={x + 15} y={y + 31} fontSize={16} textAnchor="middle" fill={red ? RED : "#111827"}>
        {suit}
      </text>
    </g>
  );
}

/** A card face down. */
export const Back = ({ x, y, r = 0 }: { x: number; y: number; r?: number }) => (
  <g transform={`rotate(${r} ${x + 15} ${y + 21})`}>
    <rect x={x + 1.5} y={y + 2} width={30} height={42} rx={4} fill={SHADE} />
    <rect x={x} y={y} width={30} height={42} rx={4} fill={INK} />
    <rect x={x + 3} y={y + 3} width={24} height={36} rx={2.5} fill="none" stroke={RED} strokeWidth={2} strokeDasharray="3 2" />
  </g>
);

/** A die, top-left at (x, y), `size` wide, showing `pips` (1-6). */
export function Die({ x, y, size = 26, pips, r = 0 }: { x: number; y: number; size?: number; pips: number; r?: number }) {
  const at: Record<number, [number, number][]> = {
    1: [[0.5, 0.5]],
    2: [
      [0.27, 0.27],
      [0.73, 0.73],
    ],
    3: [
      [0.25, 0.25],
      [0.5, 0.5],
      [0.75, 0.75],
    ],
    4: [
      [0.28, 0.28],
      [0.72, 0.28],
      [0.28, 0.72],
      [0.72, 0.72],
    ],
    5: [
      [0.26, 0.26],
      [0.74, 0.26],
      [0.5, 0.5],
      [0.26, 0.74],
      [0.74, 0.74],
    ],
    6: [
      [0.28, 0.22],
      [0.72, 0.22],
      [0.28, 0.5],
      [0.72, 0.5],
      [0.28, 0.78],
      [0.72, 0.78],
    ],
  };
  return (
    <g transform={`rotate(${r} ${x + size / 2} ${y + size / 2})`}>
      <rect x={x + 1.5} y={y + 2} width={size} height={size} rx={size / 5} fill={SHADE} />
      <rect x={x} y={y} width={size} height={size} rx={size / 5} fill={INK} />
      {at[pips]!.map(([px, py], i) => (
        <circle key={i} cx={x + px * size} cy={y + py * size} r={size / 11} fill={pips === 1 ? RED : "#111827"} />
      ))}
    </g>
  );
}

export const Chip = ({ x, y, color }: { x: number; y: number; color: string }) => (
  <g>
    <ellipse cx={x} cy={y + 2} rx={11} ry={4.5} fill={SHADE} />
    <ellipse cx={x} cy={y} rx={11} ry={4.5} fill={color} stroke={INK} strokeWidth={1.5} strokeDasharray="3 3" />
  </g>
);
