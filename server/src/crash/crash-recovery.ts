import type { Log } from "../platform/log";

/**
 * Settles, by the restart rule, every crash round (or, with the table's store, every table shoe) whose process stopped renewing its lease: at boot
 * (a round left by the previous run of this process) and then once per lease period (a round left by
 * another process that died). Returns a stop function that waits for a sweep in progress.
 */
export function startCrashRecovery(
  store: { recoverStale(): Promise<number> },
  everyMs: number,
  log: Pick<Log, "error">,
  kind = "crash",
): () => Promise<void> {
  let current: Promise<void> = Promise.resolve();
  let stopped = false;
  const sweep = () => {
    if (stopped) return;
    current = current.then(() =>
      store.recoverStale().then(
        () => undefined,
        (error) => log.error(`${kind}:recovery`, `${kind} recovery sweep failed`, error),
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
