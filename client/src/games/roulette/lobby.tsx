import { CircleDot } from "lucide-react";
import { type GameLobby, GOLD, INK, RED } from "../shared/lobby-art";

/** How the game shows in the lobby. */
export const lobby: GameLobby = {
  icon: CircleDot,
  hue: 140,
  art: (
    <>
      <circle cx={80} cy={45} r={36} fill="#111827" stroke={GOLD} strokeWidth={3} />
      {Array.from({ length: 12 }, (_, i) => {
        const a = (i * Math.PI) / 6;
        const b = ((i + 1) * Math.PI) / 6;
        const p = (t: number, r: number) => `${(80 + r * Math.cos(t)).toFixed(1)} ${(45 + r * Math.sin(t)).toFixed(1)}`;
        return (
          <path
            key={i}
            d={`M${p(a, 33)} A33 33 0 0 1 ${p(b, 33)} L${p(b, 20)} A20 20 0 0 0 ${p(a, 20)}z`}
            fill={i === 0 ? "#16a34a" : i % 2 ? RED : "#1f2937"}
          />
        );
      })}
      <circle cx={80} cy={45} r={14} fill={GOLD} />
      <circle cx={80} cy={45} r={4} fill={INK} />
      <circle cx={104} cy={25} r={3.5} fill={INK} />
    </>
  ),
};
