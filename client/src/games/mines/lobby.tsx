import { Bomb } from "lucide-react";
import { type GameLobby, GOLD, INK, SHADE } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Bomb,
  hue: 190,
  art: (
    <>
      {Array.from({ length: 10 }, (_, i) => (
        <rect key={i} x={30 + (i % 5) * 21} y={20 + Math.floor(i / 5) * 26} width={18} height={22} rx={4} fill={SHADE} />
      ))}
      <path d="M55 22 l7 -0 l4 6 l-7.5 10 l-7.5 -10z" fill="#22d3ee" stroke={INK} strokeWidth={1} />
      <path d="M97 48 l7 0 l4 6 l-7.5 10 l-7.5 -10z" fill="#22d3ee" stroke={INK} strokeWidth={1} />
      <circle cx={123} cy={57} r={7} fill="#111827" />
      <path d="M123 50 q2 -4 6 -4" stroke={GOLD} strokeWidth={2} fill="none" />
      <circle cx={121} cy={55} r={2} fill={INK} />
    </>
  ),
};
