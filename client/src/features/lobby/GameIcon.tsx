import {
  Bomb,
  ChartLine,
  Cherry,
  CircleDot,
  Coins,
  Crosshair,
  Dice5,
  Dices,
  Gem,
  Grid3x3,
  Layers,
  Rocket,
  Spade,
  Spline,
  Target,
  Ticket,
  Club,
  ArrowUpDown,
  type LucideIcon,
} from "lucide-react";
import type { GameId } from "@casino/common/catalogue";

const ICONS: Record<GameId, LucideIcon> = {
  blackjack: Spade,
  poker: Club,
  baccarat: Layers,
  "three-card-poker": Gem,
  "video-poker": Ticket,
  crash: Rocket,
  "coin-flip": Coins,
  "hi-lo": ArrowUpDown,
  dice: Dice5,
  limbo: ChartLine,
  "dot-battle": Crosshair,
  craps: Dices,
  "sic-bo": Grid3x3,
  slots: Cherry,
  roulette: CircleDot,
  keno: Target,
  mines: Bomb,
  dots: Spline,
};

export function GameIcon({ id, className }: { id: GameId; className?: string }) {
  const Icon = ICONS[id];
  return <Icon className={className} aria-hidden />;
}
