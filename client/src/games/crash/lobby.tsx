import { Rocket } from "lucide-react";
import { type GameLobby, GOLD, INK, RED } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: Rocket,
  hue: 20,
  art: (
    <>
      <path d="M14 80 Q80 78 120 30" fill="none" stroke={GOLD} strokeWidth={3} strokeLinecap="round" />
      <g transform="rotate(40 124 26)">
        <path d="M124 8 q8 10 8 24 h-16 q0-14 8-24z" fill={INK} />
        <circle cx={124} cy={22} r={3} fill="#2563eb" />
        <path d="M118 32 l-5 8 h7z M130 32 l5 8 h-7z" fill={RED} />
        <path d="M120 33 q4 12 8 0z" fill={GOLD} />
      </g>
      <text x={30} y={30} fontSize={16} fontWeight={800} fill={INK}>
        2.47×
      </text>
    </>
  ),
};
