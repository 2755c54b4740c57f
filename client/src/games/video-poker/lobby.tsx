import { Ticket } from "lucide-react";
import { type GameLobby, GOLD, INK, RED } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Ticket,
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
};
