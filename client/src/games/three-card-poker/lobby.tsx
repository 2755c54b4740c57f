import { Gem } from "lucide-react";
import { type GameLobby, Card } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Gem,
  hue: 270,
  art: (
    <>
      <Card x={38} y={24} label="Q" suit="♥" red />
      <Card x={65} y={24} label="K" suit="♥" red />
      <Card x={92} y={24} label="A" suit="♥" red />
    </>
  ),
};
