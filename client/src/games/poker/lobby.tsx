import { Club } from "lucide-react";
import { type GameLobby, Back, Chip, GOLD, RED } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Club,
  hue: 200,
  art: (
    <>
      <Back x={40} y={24} r={-10} />
      <Back x={58} y={22} r={8} />
      <Chip x={112} y={62} color={RED} />
      <Chip x={112} y={55} color="#2563eb" />
      <Chip x={112} y={48} color="#111827" />
      <Chip x={132} y={62} color={GOLD} />
    </>
  ),
};
