import { ArrowUpDown } from "lucide-react";
import { type GameLobby, Card, GOLD, RED } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: ArrowUpDown,
  hue: 180,
  art: (
    <>
      <Card x={65} y={24} label="7" suit="♣" />
      <path d="M40 40 l10 -14 l10 14 h-6 v12 h-8 v-12z" fill={GOLD} />
      <path d="M110 40 l10 14 l10 -14 h-6 v-12 h-8 v12z" fill={RED} />
    </>
  ),
};
