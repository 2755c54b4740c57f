import { Target } from "lucide-react";
import { type GameLobby, GOLD, INK } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Target,
  hue: 210,
  art: (
    <>
      {Array.from({ length: 15 }, (_, i) => {
        const hit = [2, 6, 8, 12].includes(i);
        return (
          <g key={i}>
            <circle cx={36 + (i % 5) * 22} cy={22 + Math.floor(i / 5) * 23} r={9} fill={hit ? GOLD : INK} opacity={hit ? 1 : 0.85} />
            <text x={36 + (i % 5) * 22} y={25.5 + Math.floor(i / 5) * 23} fontSize={9} fontWeight={700} textAnchor="middle" fill="#111827">
              {i + 1}
            </text>
          </g>
        );
      })}
    </>
  ),
};
