import { useCallback, useEffect, useRef, useState } from "react";
import { errorText } from "./use-round";

export type SharedRoomStatus = "connecting" | "open" | "reconnecting" | "lost";

/** A shared room as a table joins it: status and state pushed, requests through the connection. */
interface SharedRoom<S, C extends { close(): void }> {
  connect(listener: { status(status: SharedRoomStatus): void; state(state: S): void }): C;
}

/**
 * Joins a shared room (the crash room, the blackjack table) for as long as the table is shown, and keeps
 * what the server last sent. `send` runs one request at a time as the UI sees it: `pending` while it is
 * under way, its refusal's words in `error`. Nothing here decides an outcome; the table draws the state.
 */
export function useSharedRoom<S, C extends { close(): void }>(shared: SharedRoom<S, C>) {
  const [status, setStatus] = useState<SharedRoomStatus>("connecting");
  const [state, setState] = useState<S | null>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const connection = useRef<C | null>(null);

  useEffect(() => {
    const c = shared.connect({ status: setStatus, state: setState });
    connection.current = c;
    return () => {
      connection.current = null;
      c.close();
    };
  }, [shared]);

  const send = useCallback(async (work: (c: C) => Promise<unknown>) => {
    const c = connection.current;
    if (!c) return;
    setPending(true);
    setError(null);
    try {
      await work(c);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPending(false);
    }
  }, []);

  return { status, state, pending, error, send };
}
