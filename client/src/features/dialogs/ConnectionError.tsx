import { useState } from "react";
import { TriangleAlert, X } from "lucide-react";
import { useSession } from "../../store/session";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";

const STANDALONE = "Running in standalone mode for development";

/** No player at all: the spec's Connection Error screen, with a way to try again. */
export function ConnectionErrorScreen() {
  const fatalError = useSession((s) => s.fatalError);
  const authError = useSession((s) => s.authError);
  return (
    <main className="grid min-h-dvh place-items-center p-4">
      <Card className="w-full max-w-md text-center" role="alert">
        <TriangleAlert className="mx-auto h-10 w-10 text-destructive" aria-hidden />
        <h1 className="mt-3 text-2xl font-bold">Connection Error</h1>
        <p className="mt-2 break-words text-muted-foreground">{authError ?? fatalError}</p>
        {authError && fatalError && <p className="mt-1 break-words text-sm text-muted-foreground">{fatalError}</p>}
        <p className="mt-3 text-sm">{STANDALONE}</p>
        <Button className="mt-5" onClick={() => location.reload()}>
          Try Again
        </Button>
      </Card>
    </main>
  );
}

/** Discord sign-in failed but a guest plays: the same texts, as a banner above the lobby. */
export function ConnectionErrorBanner() {
  const authError = useSession((s) => s.authError);
  const [hidden, setHidden] = useState(false);
  if (!authError || hidden) return null;
  return (
    <div
      role="alert"
      className="mx-auto mt-3 flex w-[calc(100%-2rem)] max-w-6xl items-start gap-3 rounded-xl border border-destructive/60 bg-destructive/10 p-3 text-sm"
    >
      <TriangleAlert className="mt-0.5 h-5 w-5 shrink-0 text-destructive" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">Connection Error</p>
        <p className="break-words text-muted-foreground">{authError}</p>
        <p>{STANDALONE}</p>
      </div>
      <button className="rounded p-1 opacity-70 hover:opacity-100" aria-label="Dismiss" onClick={() => setHidden(true)}>
        <X className="h-4 w-4" aria-hidden />
      </button>
    </div>
  );
}
