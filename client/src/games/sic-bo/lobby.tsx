import { Grid3x3 } from "lucide-react";
import { type GameLobby, Die, GOLD, SHADE } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Grid3x3,
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
};
