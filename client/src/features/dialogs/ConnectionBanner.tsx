import { useRoom } from "../../store/room";
import { reconnectRoom } from "../../app/start";
import { Button } from "../../ui/Button";

/**
 * The room connection's trouble, if any: reconnecting on its own, lost with a way to retry, or closed by
 * the server because the account was suspended or erased (its reason, no retry).
 */
export function ConnectionBanner() {
  const status = useRoom((s) => s.status);
  const closedReason = useRoom((s) => s.closedReason);
  if (status === "closed") {
    return (
      <div role="alert" className="sticky top-0 z-30 flex items-center justify-center gap-3 bg-destructive px-4 py-2 text-sm text-white">
        <span>{closedReason}</span>
      </div>
    );
  }
  if (status !== "reconnecting" && status !== "lost") return null;
  return (
    <div role="status" className="sticky top-0 z-30 flex items-center justify-center gap-3 bg-muted px-4 py-2 text-sm">
      {status === "reconnecting" ? (
        <span>Reconnecting to the casino...</span>
      ) : (
        <>
          <span>Connection to the casino was lost.</span>
          <Button size="sm" onClick={reconnectRoom}>
            Retry
          </Button>
        </>
      )}
    </div>
  );
}
