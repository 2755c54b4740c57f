import { useEffect, useState } from "react";
import { CheckCircle2, XCircle } from "lucide-react";
import { checkHoldemRecord, dealHoldemHand, describeHoldemHand, holdemHandFile, recordOfFile } from "@casino/common/games/holdem/deck";
import { holdemHandVerifyHref } from "@casino/common/verifiers/verify-link";
import { describeZodError } from "@casino/common/validation";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { cn } from "../../ui/cn";
import { go } from "../../app/address";

type Outcome =
  | { kind: "empty" }
  | { kind: "busy" }
  | { kind: "refused"; title: string; message: string }
  | { kind: "done"; matches: boolean; commitment: boolean | null; problems: string[]; lines: string[]; serverSeed: string };

/** A finished hand's record from the server (`GET /api/holdem-hands/:id`), dealt again here and compared with what the table recorded. */
async function verifyHand(id: string, signal: AbortSignal): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(`/api/holdem-hands/${encodeURIComponent(id)}`, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    return {
      kind: "refused",
      title: "The hand's record could not be read",
      message: "The casino could not be reached: check the connection.",
    };
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (body as { error?: string } | null)?.error ?? `${res.status}: ${res.statusText}`;
    return { kind: "refused", title: res.status === 409 ? "This hand cannot be verified yet" : "No hand to verify", message };
  }
  const parsed = holdemHandFile.safeParse(body);
  if (!parsed.success) return { kind: "refused", title: "The hand's record is malformed", message: describeZodError(parsed.error) };
  try {
    const dealt = dealHoldemHand(recordOfFile(parsed.data));
    const problems = checkHoldemRecord(dealt, parsed.data.outcome ?? { board: [], stacks: [] });
    const commitment = dealt.commitment.matches;
    return {
      kind: "done",
      matches: problems.length === 0 && commitment === true,
      commitment,
      problems,
      lines: describeHoldemHand(dealt),
      serverSeed: parsed.data.serverSeed,
    };
  } catch (error) {
    return { kind: "refused", title: "This hand cannot be dealt again", message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The verifier on one hand of the Hold'em table (`/verify?holdemHand=<id>`, the link of a hand's history
 * row): its public record read by id once the hand is over, the seed checked against the hash shown
 * before the deal, the deck derived again from it and the players' client seeds, the actions replayed
 * with the table's own hand machine, and the board and every stack compared with the record.
 */
export function HandVerifier({ initialId }: { initialId: string }) {
  const [draft, setDraft] = useState(initialId);
  const [request, setRequest] = useState({ id: initialId, attempt: 0 });
  const [answer, setAnswer] = useState<{ request: typeof request; outcome: Outcome } | null>(null);

  useEffect(() => {
    if (!request.id) return;
    const abort = new AbortController();
    verifyHand(request.id, abort.signal)
      .then((outcome) => setAnswer({ request, outcome }))
      .catch(() => undefined);
    return () => abort.abort();
  }, [request]);

  const outcome: Outcome = !request.id ? { kind: "empty" } : answer?.request === request ? answer.outcome : { kind: "busy" };
  const submit = (next: string) => {
    const trimmed = next.trim();
    setRequest((r) => ({ id: trimmed, attempt: r.attempt + 1 }));
    go(trimmed ? holdemHandVerifyHref(trimmed) : "/verify?holdemHand=", { replace: true });
  };

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <Card className="space-y-3 self-start">
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit(draft);
          }}
        >
          <div className="space-y-1">
            <label htmlFor="verify-hand-id" className="block text-xs font-semibold uppercase tracking-wide text-muted-foreground">
              Hand id
            </label>
            <input
              id="verify-hand-id"
              data-testid="verify-hand-id"
              spellCheck={false}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder="e.g. 3f2a…"
              className="h-10 w-full rounded-lg border border-border bg-background px-3 py-2 font-mono text-xs"
            />
            <p className="text-xs text-muted-foreground">Your history links here for each hand you played at the Hold&apos;em table.</p>
          </div>
          <Button type="submit" size="sm" data-testid="verify-hand-submit" disabled={outcome.kind === "busy"}>
            Verify the hand
          </Button>
        </form>
        {outcome.kind === "done" && (
          <dl className="space-y-1 border-t border-border pt-3 text-xs">
            <dt className="font-semibold uppercase tracking-wide text-muted-foreground">Server seed (revealed)</dt>
            <dd className="break-all font-mono">{outcome.serverSeed}</dd>
          </dl>
        )}
      </Card>

      <div className="space-y-4">
        {outcome.kind === "empty" && (
          <Card>
            <p className="text-muted-foreground">
              Enter the id of a finished hand of the Hold&apos;em table. Its record is read from the casino and the hand is dealt again
              here, in your browser.
            </p>
          </Card>
        )}
        {outcome.kind === "busy" && (
          <Card aria-busy="true">
            <p className="text-muted-foreground">Reading the hand&apos;s record…</p>
          </Card>
        )}
        {outcome.kind === "refused" && (
          <Card role="alert" data-testid="verify-error">
            <p className="font-semibold text-destructive">{outcome.title}</p>
            <p className="mt-1 text-sm">{outcome.message}</p>
          </Card>
        )}
        {outcome.kind === "done" && (
          <Card data-testid="verify-hand-result" data-matches={String(outcome.matches)} className="space-y-2">
            <h2 className="font-bold">Outcome</h2>
            <p className={cn("flex items-center gap-2 text-sm font-semibold", outcome.matches ? "text-positive" : "text-destructive")}>
              {outcome.matches ? <CheckCircle2 className="h-4 w-4" aria-hidden /> : <XCircle className="h-4 w-4" aria-hidden />}
              {outcome.matches
                ? "The hand matches the record: the seed is the one committed before the deal, and the board and every stack deal again the same."
                : outcome.commitment === false
                  ? "The server seed does not match the hash shown before the hand."
                  : `The hand does not match the record: ${outcome.problems.join("; ")}.`}
            </p>
            <ul className="space-y-0.5 font-mono text-xs" data-testid="verify-hand-lines">
              {outcome.lines.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </div>
  );
}
