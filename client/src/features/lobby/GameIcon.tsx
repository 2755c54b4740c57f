import type { GameId } from "@casino/common/catalogue";
import { CLIENT_GAMES } from "../../games/registry";

export function GameIcon({ id, className }: { id: GameId; className?: string }) {
  const Icon = CLIENT_GAMES[id].lobby.icon;
  return <Icon className={className} aria-hidden />;
}
