import { Dices } from "lucide-react";
import { type GameLobby, Die, GOLD } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Dices,
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
};
