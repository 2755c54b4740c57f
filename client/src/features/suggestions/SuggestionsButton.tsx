import { lazy, Suspense, useState } from "react";
import { MessageSquare } from "lucide-react";
import { useSession } from "../../store/session";
import { Button } from "../../ui/Button";

const SuggestionsDialog = lazy(() => import("./SuggestionsDialog"));

/** "Suggestions?": for signed-in Discord players only (hidden for guests and players without a discordId). */
export function SuggestionsButton() {
  const player = useSession((s) => s.player);
  const [open, setOpen] = useState(false);
  if (!player || player.isGuest || !player.discordId) return null;
  return (
    <div className="mt-10 flex justify-center">
      <Button variant="outline" onClick={() => setOpen(true)}>
        <MessageSquare className="h-4 w-4" aria-hidden /> Suggestions?
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SuggestionsDialog playerId={player.id} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
