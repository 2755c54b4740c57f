import { Spade } from "lucide-react";
import { type GameLobby, Card, GOLD } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Spade,
  hue: 150,
  art: (
    <>
      <Card x={56} y={22} r={-12} label="A" suit="♠" />
      <Card x={76} y={24} r={10} label="K" suit="♥" red />
      <text x={134} y={76} fontSize={14} fontWeight={800} fill={GOLD} textAnchor="middle">
        21
      </text>
    </>
  ),
};
