import { ChartLine } from "lucide-react";
import { type GameLobby, GOLD, INK, SHADE } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: ChartLine,
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
};
