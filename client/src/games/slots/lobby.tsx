import { Cherry } from "lucide-react";
import { type GameLobby, GOLD, INK, RED } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Cherry,
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
};
