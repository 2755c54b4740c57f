import { useRoom } from "../store/room";
import { useSettings } from "../store/settings";
import { toast, useToast, type ToastContent } from "../store/toast";

/**
 * Toasts the server pushes on its own (a tag unlocked, a reminder) never tell a round's outcome before
 * its table does: while a bet is on its way, a result is still being revealed or an auto-bet runs, they
 * wait; then they wait for the toast on screen (the round's result, the auto-bet summary) to go, and
 * show one after the other.
 */
const queue: ToastContent[] = [];
let watching = false;

const roundUnshown = () => {
  const room = useRoom.getState();
  return room.inFlight > 0 || Object.keys(room.withheld).length > 0 || useSettings.getState().autoBetRunning;
};

function flush(): void {
  if (queue.length === 0 || roundUnshown() || useToast.getState().current) return;
  toast(queue.shift()!);
}

export function showWhenRoundShown(content: ToastContent): void {
  if (!roundUnshown() && !useToast.getState().current && queue.length === 0) {
    toast(content);
    return;
  }
  queue.push(content);
  if (!watching) {
    watching = true;
    useRoom.subscribe(flush);
    useSettings.subscribe(flush);
    useToast.subscribe(flush);
  }
}
