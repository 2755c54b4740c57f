import { Layers } from "lucide-react";
import { type GameLobby, Card, GOLD } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Layers,
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
};
