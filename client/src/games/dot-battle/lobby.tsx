import { Crosshair } from "lucide-react";
import { type GameLobby, GOLD, INK, RED } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Crosshair,
  hue: 0,
  art: (
    <>
      <circle cx={80} cy={45} r={22} fill="none" stroke={INK} strokeWidth={2.5} />
      <path d="M80 16 v14 M80 60 v14 M51 45 h14 M95 45 h14" stroke={INK} strokeWidth={2.5} />
      <circle cx={80} cy={45} r={4} fill={GOLD} />
      {[
        [30, 20],
        [130, 26],
        [120, 70],
        [36, 70],
        [58, 14],
        [108, 52],
      ].map(([x, y], i) => (
        <circle key={i} cx={x} cy={y} r={i % 2 ? 3 : 4.5} fill={i % 3 ? RED : GOLD} />
      ))}
    </>
  ),
};
