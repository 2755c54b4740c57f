import { useId, type ReactNode } from "react";
import type { GameId } from "@casino/common/catalogue";

/*
 * One illustration per game, drawn for this project as SVG (part of the project, under its licence).
 * Each is a 160×90 scene on the game's own colour; the shapes use a few fixed inks so they read the
 * same in light and dark mode. They are decoration: the tile's title names the game.
 */

const INK = "#fff";
const SHADE = "rgba(0,0,0,.28)";
const GOLD = "#fcd34d";
const RED = "#ef4444";

/** A playing card, top-left corner at (x, y), turned by `r` degrees. */
function Card({ x, y, r = 0, label, suit, red }: { x: number; y: number; r?: number; label: string; suit: string; red?: boolean }) {
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
const Back = ({ x, y, r = 0 }: { x: number; y: number; r?: number }) => (
  <g transform={`rotate(${r} ${x + 15} ${y + 21})`}>
    <rect x={x + 1.5} y={y + 2} width={30} height={42} rx={4} fill={SHADE} />
    <rect x={x} y={y} width={30} height={42} rx={4} fill={INK} />
    <rect x={x + 3} y={y + 3} width={24} height={36} rx={2.5} fill="none" stroke={RED} strokeWidth={2} strokeDasharray="3 2" />
  </g>
);

/** A die, top-left at (x, y), `size` wide, showing `pips` (1-6). */
function Die({ x, y, size = 26, pips, r = 0 }: { x: number; y: number; size?: number; pips: number; r?: number }) {
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

const Chip = ({ x, y, color }: { x: number; y: number; color: string }) => (
  <g>
    <ellipse cx={x} cy={y + 2} rx={11} ry={4.5} fill={SHADE} />
    <ellipse cx={x} cy={y} rx={11} ry={4.5} fill={color} stroke={INK} strokeWidth={1.5} strokeDasharray="3 3" />
  </g>
);

const SCENES: Record<GameId, { hue: number; art: ReactNode }> = {
  blackjack: {
    hue: 150,
    art: (
      <>
        <Card x={56} y={22} r={-12} label="A" suit="♠" />
        <Card x={76} y={24} r={10} label="K" suit="♥" red />
        <text x={134} y={76} fontSize={14} fontWeight={800} fill={GOLD} textAnchor="middle">
          21
        </text>
      </>
    ),
  },
  poker: {
    hue: 200,
    art: (
      <>
        <Back x={40} y={24} r={-10} />
        <Back x={58} y={22} r={8} />
        <Chip x={112} y={62} color={RED} />
        <Chip x={112} y={55} color="#2563eb" />
        <Chip x={112} y={48} color="#111827" />
        <Chip x={132} y={62} color={GOLD} />
      </>
    ),
  },
  baccarat: {
    hue: 340,
    art: (
      <>
        <Card x={44} y={26} r={-18} label="4" suit="♦" red />
        <Card x={65} y={20} label="5" suit="♣" />
        <Card x={86} y={26} r={18} label="K" suit="♠" />
        <circle cx={136} cy={66} r={11} fill={GOLD} />
        <text x={136} y={70.5} fontSize={12} fontWeight={800} textAnchor="middle" fill="#111827">
          9
        </text>
      </>
    ),
  },
  "three-card-poker": {
    hue: 270,
    art: (
      <>
        <Card x={38} y={24} label="Q" suit="♥" red />
        <Card x={65} y={24} label="K" suit="♥" red />
        <Card x={92} y={24} label="A" suit="♥" red />
      </>
    ),
  },
  "video-poker": {
    hue: 230,
    art: (
      <>
        <rect x={24} y={14} width={112} height={62} rx={8} fill="#111827" stroke={INK} strokeWidth={2} />
        {[0, 1, 2, 3, 4].map((i) => (
          <g key={i}>
            <rect x={31 + i * 20.5} y={30} width={17} height={25} rx={2.5} fill={INK} />
            <text x={39.5 + i * 20.5} y={47} fontSize={11} textAnchor="middle" fill={i % 2 ? RED : "#111827"}>
              {["♠", "♥", "♣", "♦", "♠"][i]}
            </text>
          </g>
        ))}
        <text x={80} y={69} fontSize={7} fontWeight={700} textAnchor="middle" fill={GOLD}>
          JACKS OR BETTER
        </text>
      </>
    ),
  },
  crash: {
    hue: 20,
    art: (
      <>
        <path d="M14 80 Q80 78 120 30" fill="none" stroke={GOLD} strokeWidth={3} strokeLinecap="round" />
        <g transform="rotate(40 124 26)">
          <path d="M124 8 q8 10 8 24 h-16 q0-14 8-24z" fill={INK} />
          <circle cx={124} cy={22} r={3} fill="#2563eb" />
          <path d="M118 32 l-5 8 h7z M130 32 l5 8 h-7z" fill={RED} />
          <path d="M120 33 q4 12 8 0z" fill={GOLD} />
        </g>
        <text x={30} y={30} fontSize={16} fontWeight={800} fill={INK}>
          2.47×
        </text>
      </>
    ),
  },
  "coin-flip": {
    hue: 45,
    art: (
      <>
        <ellipse cx={80} cy={80} rx={26} ry={5} fill={SHADE} />
        <circle cx={80} cy={42} r={28} fill={GOLD} stroke="#b45309" strokeWidth={3} />
        <circle cx={80} cy={42} r={20} fill="none" stroke="#b45309" strokeWidth={1.5} strokeDasharray="2 3" />
        <text x={80} y={51} fontSize={24} fontWeight={900} textAnchor="middle" fill="#92400e">
          H
        </text>
      </>
    ),
  },
  "hi-lo": {
    hue: 180,
    art: (
      <>
        <Card x={65} y={24} label="7" suit="♣" />
        <path d="M40 40 l10 -14 l10 14 h-6 v12 h-8 v-12z" fill={GOLD} />
        <path d="M110 40 l10 14 l10 -14 h-6 v-12 h-8 v12z" fill={RED} />
      </>
    ),
  },
  dice: {
    hue: 260,
    art: (
      <>
        <Die x={60} y={22} size={40} pips={5} r={-12} />
        <rect x={20} y={74} width={120} height={6} rx={3} fill={SHADE} />
        <rect x={20} y={74} width={66} height={6} rx={3} fill={GOLD} />
        <circle cx={86} cy={77} r={6} fill={INK} />
      </>
    ),
  },
  limbo: {
    hue: 300,
    art: (
      <>
        <path d="M20 70 h120" stroke={SHADE} strokeWidth={3} />
        <path d="M20 46 h120" stroke={GOLD} strokeWidth={2} strokeDasharray="5 4" />
        <text x={80} y={36} fontSize={20} fontWeight={900} textAnchor="middle" fill={INK}>
          10.00×
        </text>
        <path d="M60 70 v-16 M80 70 v-22 M100 70 v-10" stroke={INK} strokeWidth={6} strokeLinecap="round" />
      </>
    ),
  },
  "dot-battle": {
    hue: 0,
    art: (
      <>
        <circle cx={80} cy={45} r={22} fill="none" stroke={INK} strokeWidth={2.5} />
        <path d="M80 16 v14 M80 60 v14 M51 45 h14 M95 45 h14" stroke={INK} strokeWidth={2.5} />
        <circle cx={80} cy={45} r={4} fill={GOLD} />
        {[
          [30, 20],
          [130, 26],
          [120, 70],
          [36, 70],
          [58, 14],
          [108, 52],
        ].map(([x, y], i) => (
          <circle key={i} cx={x} cy={y} r={i % 2 ? 3 : 4.5} fill={i % 3 ? RED : GOLD} />
        ))}
      </>
    ),
  },
  craps: {
    hue: 120,
    art: (
      <>
        <Die x={44} y={26} size={32} pips={6} r={-18} />
        <Die x={86} y={30} size={32} pips={1} r={14} />
        <text x={80} y={84} fontSize={9} fontWeight={800} textAnchor="middle" fill={GOLD}>
          PASS LINE
        </text>
      </>
    ),
  },
  "sic-bo": {
    hue: 15,
    art: (
      <>
        <ellipse cx={80} cy={66} rx={56} ry={14} fill={SHADE} />
        <ellipse cx={80} cy={62} rx={54} ry={13} fill={GOLD} />
        <Die x={44} y={30} size={24} pips={4} r={-10} />
        <Die x={68} y={22} size={24} pips={2} />
        <Die x={92} y={32} size={24} pips={6} r={12} />
      </>
    ),
  },
  slots: {
    hue: 330,
    art: (
      <>
        <rect x={26} y={14} width={108} height={62} rx={10} fill={RED} stroke={GOLD} strokeWidth={3} />
        {[0, 1, 2].map((i) => (
          <g key={i}>
            <rect x={36 + i * 31} y={24} width={27} height={42} rx={4} fill={INK} />
            <text x={49.5 + i * 31} y={52} fontSize={20} fontWeight={900} textAnchor="middle" fill={RED}>
              7
            </text>
          </g>
        ))}
        <path d="M140 30 v24" stroke={INK} strokeWidth={3} strokeLinecap="round" />
        <circle cx={140} cy={26} r={5} fill={GOLD} />
      </>
    ),
  },
  roulette: {
    hue: 140,
    art: (
      <>
        <circle cx={80} cy={45} r={36} fill="#111827" stroke={GOLD} strokeWidth={3} />
        {Array.from({ length: 12 }, (_, i) => {
          const a = (i * Math.PI) / 6;
          const b = ((i + 1) * Math.PI) / 6;
          const p = (t: number, r: number) => `${(80 + r * Math.cos(t)).toFixed(1)} ${(45 + r * Math.sin(t)).toFixed(1)}`;
          return (
            <path
              key={i}
              d={`M${p(a, 33)} A33 33 0 0 1 ${p(b, 33)} L${p(b, 20)} A20 20 0 0 0 ${p(a, 20)}z`}
              fill={i === 0 ? "#16a34a" : i % 2 ? RED : "#1f2937"}
            />
          );
        })}
        <circle cx={80} cy={45} r={14} fill={GOLD} />
        <circle cx={80} cy={45} r={4} fill={INK} />
        <circle cx={104} cy={25} r={3.5} fill={INK} />
      </>
    ),
  },
  keno: {
    hue: 210,
    art: (
      <>
        {Array.from({ length: 15 }, (_, i) => {
          const hit = [2, 6, 8, 12].includes(i);
          return (
            <g key={i}>
              <circle cx={36 + (i % 5) * 22} cy={22 + Math.floor(i / 5) * 23} r={9} fill={hit ? GOLD : INK} opacity={hit ? 1 : 0.85} />
              <text
                x={36 + (i % 5) * 22}
                y={25.5 + Math.floor(i / 5) * 23}
                fontSize={9}
                fontWeight={700}
                textAnchor="middle"
                fill="#111827"
              >
                {i + 1}
              </text>
            </g>
          );
        })}
      </>
    ),
  },
  mines: {
    hue: 190,
    art: (
      <>
        {Array.from({ length: 10 }, (_, i) => (
          <rect key={i} x={30 + (i % 5) * 21} y={20 + Math.floor(i / 5) * 26} width={18} height={22} rx={4} fill={SHADE} />
        ))}
        <path d="M55 22 l7 -0 l4 6 l-7.5 10 l-7.5 -10z" fill="#22d3ee" stroke={INK} strokeWidth={1} />
        <path d="M97 48 l7 0 l4 6 l-7.5 10 l-7.5 -10z" fill="#22d3ee" stroke={INK} strokeWidth={1} />
        <circle cx={123} cy={57} r={7} fill="#111827" />
        <path d="M123 50 q2 -4 6 -4" stroke={GOLD} strokeWidth={2} fill="none" />
        <circle cx={121} cy={55} r={2} fill={INK} />
      </>
    ),
  },
  dots: {
    hue: 95,
    art: (
      <>
        <path d="M34 64 L58 26 L84 54 L108 22 L130 60" fill="none" stroke={INK} strokeWidth={3} strokeLinejoin="round" />
        <path d="M130 60 L112 74" fill="none" stroke={INK} strokeWidth={3} strokeDasharray="4 4" />
        {[
          [34, 64, 1],
          [58, 26, 2],
          [84, 54, 3],
          [108, 22, 4],
          [130, 60, 5],
          [112, 74, 6],
        ].map(([x, y, n]) => (
          <g key={n}>
            <circle cx={x} cy={y} r={7} fill={n === 6 ? GOLD : INK} />
            <text x={x} y={y! + 3} fontSize={8} fontWeight={800} textAnchor="middle" fill="#111827">
              {n}
            </text>
          </g>
        ))}
      </>
    ),
  },
};

/** The game's illustration, filling its box (16:9 drawn; a wider box crops its top and bottom edges). */
export function GameArt({ id, className }: { id: GameId; className?: string }) {
  const { hue, art } = SCENES[id];
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
