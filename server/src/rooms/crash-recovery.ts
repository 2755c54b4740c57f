import type { Log } from "../log";
import type { CrashStore } from "../db/crash-store";

/**
 * Settles, by the restart rule, every crash round whose process stopped renewing its lease: at boot
 * (a round left by the previous run of this process) and then once per lease period (a round left by
 * another process that died). Returns a stop function that waits for a sweep in progress.
 */
export function startCrashRecovery(store: CrashStore, everyMs: number, log: Pick<Log, "error">): () => Promise<void> {
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  const sweep = () => {
    if (stopped) return;
    current = current.then(() =>
      store.recoverStale().then(
        () => undefined,
        (error) => log.error("crash:recovery", "crash recovery sweep failed", error),
      ),
    );
  };
  sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await current;
  };
}
