import { roundUnshown, useRoom } from "../store/room";
import { useSettings } from "../store/settings";
import { toast, useToast, type ToastContent } from "../store/toast";

/**
 * Toasts the server pushes on its own (a tag unlocked, a reminder) never tell a round's outcome before
 * its table does: while a bet is on its way, a result is still being revealed or an auto-bet runs, they
 * wait; then they wait for the toast on screen (the round's result, the auto-bet summary) to go, and
 * show one after the other.
 */
const queue: ToastContent[] = [];
let timer: ReturnType<typeof setInterval> | undefined;
const CHECK_MS = 250;

const mustWait = () => {
  const waiting = roundUnshown(useRoom.getState()) || useSettings.getState().autoBetRunning;
  return waiting || useToast.getState().current !== null;
};

function flush(): void {
  if (queue.length > 0 && !mustWait()) toast(queue.shift()!);
  if (queue.length === 0) {
    clearInterval(timer);
    timer = undefined;
  }
}

export function showWhenRoundShown(content: ToastContent): void {
  queue.push(content);
  if (timer === undefined) timer = setInterval(flush, CHECK_MS);
}
