import { Spline } from "lucide-react";
import { type GameLobby, GOLD, INK } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Spline,
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
};
