import { lazy, Suspense, useState } from "react";
import { TERMS_VERSION } from "@casino/common/constants";
import { useSession } from "../../store/session";
import { dismissGuestNotice, guestNoticeDismissed } from "../../platform/guest";
// In the entry: on a guest's first visit the notice is the first view, drawn with the lobby.
import GuestDialog from "./GuestDialog";

const TermsDialog = lazy(() => import("../legal/TermsDialog"));

/**
 * The dialogs of start-up: the guest notice on a guest's first visit (standalone only: inside Discord a
 * guest is there because sign-in failed, which the error banner explains), and the blocking terms
 * dialog for a signed-in player who has not accepted the current version.
 */
export function StartupDialogs() {
  const player = useSession((s) => s.player);
  const embedded = useSession((s) => s.embedded);
  const [guestNotice, setGuestNotice] = useState(() => !guestNoticeDismissed());
  if (!player) return null;
  if (player.isGuest) {
    if (!guestNotice || embedded) return null;
    return (
      <GuestDialog
        open
        onContinue={() => {
          dismissGuestNotice();
          setGuestNotice(false);
        }}
      />
    );
  }
  if (player.tosAcceptedVersion === TERMS_VERSION) return null;
  return (
    <Suspense fallback={null}>
      <TermsDialog player={player} />
    </Suspense>
  );
}
