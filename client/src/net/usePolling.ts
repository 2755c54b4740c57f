import { useEffect, useLayoutEffect, useRef, useState, type DependencyList } from "react";

export interface Polled<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
}

/**
 * Fetches now and every `intervalMs` while mounted, and again whenever `deps` change; paused while the
 * page is hidden. No retries beyond the next tick (the spec's "no retries by default"). The last good
 * data stays shown while a refetch is in flight; an error replaces it. `remembered` is what an earlier
 * mount last read: shown from the first render while it is fetched again, so a screen opened again does
 * not start empty and then move when the answer arrives.
 */
export function usePolling<T>(fetcher: () => Promise<T>, intervalMs: number, deps: DependencyList, remembered?: T): Polled<T> {
  const [state, setState] = useState<Polled<T>>({ data: remembered, error: undefined, loading: remembered === undefined });
  const fetcherRef = useRef(fetcher);
  useLayoutEffect(() => {
    fetcherRef.current = fetcher;
  });
  // New deps: nothing shown yet means loading again (the last good data stays shown while refetching).
  const key = [intervalMs, ...deps];
  const [keyOfState, setKeyOfState] = useState(key);
  if (key.length !== keyOfState.length || key.some((v, i) => !Object.is(v, keyOfState[i]))) {
    setKeyOfState(key);
    setState((s) => ({ ...s, loading: s.data === undefined }));
  }

  useEffect(() => {
    let alive = true;
    let seq = 0;
    const run = async () => {
      if (document.visibilityState === "hidden") return;
      const mine = ++seq;
      try {
        const data = await fetcherRef.current();
        if (alive && mine === seq) setState({ data, error: undefined, loading: false });
      } catch (error) {
        if (alive && mine === seq) setState({ data: undefined, error, loading: false });
      }
    };
    void run();
    const timer = setInterval(run, intervalMs);
    const onVisible = () => document.visibilityState === "visible" && void run();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      alive = false;
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [intervalMs, ...deps]);

  return state;
}
