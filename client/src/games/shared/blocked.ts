import { gameDefinition } from "@casino/common/catalogue";
import type { OpenRoundView } from "@casino/common/protocol";

/** Why a multi-step table cannot open a round: the player has one open in another game. */
export const blockedBy = (other: OpenRoundView | null): string | null =>
  other ? `Finish your open ${gameDefinition(other.game)?.title ?? other.game} round first` : null;
