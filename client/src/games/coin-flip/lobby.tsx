import { Coins } from "lucide-react";
import { type GameLobby, GOLD, SHADE } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Coins,
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
};
