import { Dice5 } from "lucide-react";
import { type GameLobby, Die, GOLD, INK, SHADE } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Dice5,
  hue: 260,
  art: (
    <>
      <Die x={60} y={22} size={40} pips={5} r={-12} />
      <rect x={20} y={74} width={120} height={6} rx={3} fill={SHADE} />
      <rect x={20} y={74} width={66} height={6} rx={3} fill={GOLD} />
      <circle cx={86} cy={77} r={6} fill={INK} />
    </>
  ),
};
