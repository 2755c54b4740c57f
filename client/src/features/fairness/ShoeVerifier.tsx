import { useEffect, useState } from "react";
import { CheckCircle2, XCircle } from "lucide-react";
import { revealedShoe } from "@casino/common/table-schemas";
import type { RevealedShoe } from "@casino/common/table";
import { checkShoeRecord, verifyShoe, type ShoeRoundCheck, type VerifiedShoe } from "@casino/common/verifiers/verify-shoe";
import { shoeVerifyHref } from "@casino/common/verifiers/verify-link";
import { roundingRuleName } from "@casino/common/fairness/rounding";
import { cardName, type Card as CardCode } from "@casino/common/games/cards";
import { describeZodError } from "@casino/common/validation";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { cn } from "../../ui/cn";
import { go } from "../../app/address";

type Outcome =
  | { kind: "empty" }
  | { kind: "busy"; id: string }
  | { kind: "refused"; title: string; message: string }
  | { kind: "done"; shoe: RevealedShoe; v: VerifiedShoe; checks: ShoeRoundCheck[] };

/** The shoe's public record from the server, checked against common's schema, or why there is none. */
async function fetchShoe(id: string, signal: AbortSignal): Promise<{ shoe: RevealedShoe } | { title: string; message: string }> {
  let res: Response;
  try {
    res = await fetch(`/api/tables/shoes/${encodeURIComponent(id)}`, { signal });
  } catch (error) {
    if (signal.aborted) throw error;
    return {
      title: "The shoe's record could not be read",
      message: "The casino could not be reached: check the connection and try again.",
    };
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (body as { error?: string } | null)?.error ?? `${res.status}: ${res.statusText}`;
    return { title: res.status === 409 ? "This shoe's seed is not revealed yet" : "No shoe to verify", message };
  }
  const parsed = revealedShoe.safeParse(body);
  if (!parsed.success) return { title: "The shoe's record is malformed", message: describeZodError(parsed.error) };
  return { shoe: parsed.data };
}

/** Deals the shoe again in the browser (common/verifiers/verify-shoe.ts, the code the table runs) and compares it with the record. */
function derive(shoe: RevealedShoe): Outcome {
  if (shoe.rounds.length === 0)
    return {
      kind: "refused",
      title: "Nothing to re-derive",
      message: "This shoe's table closed before its first round was dealt: no card of it was ever played.",
    };
  try {
    const v = verifyShoe({ ...shoe, serverSeedHash: shoe.serverSeedHash });
    return { kind: "done", shoe, v, checks: checkShoeRecord(v, shoe.outcomes) };
  } catch (error) {
    return { kind: "refused", title: "This shoe cannot be re-derived", message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The verifier on a whole shoe of the shared blackjack table: its public record (`GET /api/tables/shoes/:id`,
 * once its seed is revealed) fetched by id, the seed checked against the hash committed before the
 * shoe's first round, the shoe shuffled again from that seed and the seated players' client seeds, and
 * every round dealt again and compared, seat by seat, with what the server recorded when it settled it.
 */
export function ShoeVerifier({ initialId }: { initialId: string }) {
  const [draft, setDraft] = useState(initialId);
  // Each press of the button asks again (a shoe still dealt a minute ago may be finished now).
  const [request, setRequest] = useState({ id: initialId, attempt: 0 });
  const [answer, setAnswer] = useState<{ request: typeof request; outcome: Outcome } | null>(null);

  useEffect(() => {
    if (!request.id) return;
    const abort = new AbortController();
    fetchShoe(request.id, abort.signal)
      .then((got) => setAnswer({ request, outcome: "shoe" in got ? derive(got.shoe) : { kind: "refused", ...got } }))
      .catch(() => undefined);
    return () => abort.abort();
  }, [request]);

  const outcome: Outcome = !request.id
    ? { kind: "empty" }
    : answer?.request === request
      ? answer.outcome
      : { kind: "busy", id: request.id };

  // A link to one round of the shoe (`#round-3`, from a history row) scrolls to it once it is drawn.
  const done = outcome.kind === "done";
  useEffect(() => {
    if (done && window.location.hash) document.getElementById(window.location.hash.slice(1))?.scrollIntoView({ block: "center" });
  }, [done]);

  const submit = (next: string) => {
    const trimmed = next.trim();
    setRequest((r) => ({ id: trimmed, attempt: r.attempt + 1 }));
    // The address names the shoe, so it can be shared or reloaded.
    go(trimmed ? shoeVerifyHref(trimmed) : "/verify?shoe=", { replace: true });
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
            <label htmlFor="verify-shoe-id" className="block text-xs font-semibold uppercase tracking-wide text-muted-foreground">
              Shoe id
            </label>
            <input
              id="verify-shoe-id"
              data-testid="verify-shoe-id"
              spellCheck={false}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder="e.g. 3f2a…"
              className="h-10 w-full rounded-lg border border-border bg-background px-3 py-2 font-mono text-xs"
            />
            <p className="text-xs text-muted-foreground">
              The table&apos;s fairness panel links here once a shoe&apos;s seed is revealed, at its cut card.
            </p>
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" data-testid="verify-shoe-submit" disabled={outcome.kind === "busy"}>
              Verify the shoe
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => {
                setDraft("");
                submit("");
              }}
            >
              Clear
            </Button>
          </div>
        </form>
        {outcome.kind === "done" && <ShoeSeeds shoe={outcome.shoe} v={outcome.v} />}
      </Card>

      <div className="space-y-4">
        {outcome.kind === "empty" && (
          <Card>
            <p className="text-muted-foreground">
              Enter the id of a finished shoe of the blackjack table. Its record is read from the casino and every round is dealt again
              here, in your browser.
            </p>
          </Card>
        )}
        {outcome.kind === "busy" && (
          <Card aria-busy="true">
            <p className="text-muted-foreground">Reading the shoe&apos;s record…</p>
          </Card>
        )}
        {outcome.kind === "refused" && (
          <Card role="alert" data-testid="verify-error">
            <p className="font-semibold text-destructive">{outcome.title}</p>
            <p className="mt-1 text-sm">{outcome.message}</p>
          </Card>
        )}
        {outcome.kind === "done" && <ShoeVerification v={outcome.v} checks={outcome.checks} rounding={outcome.shoe.rounding} />}
      </div>
    </div>
  );
}

function ShoeSeeds({ shoe, v }: { shoe: RevealedShoe; v: VerifiedShoe }) {
  return (
    <dl className="space-y-2 border-t border-border pt-3 text-xs">
      <div>
        <dt className="font-semibold uppercase tracking-wide text-muted-foreground">Server seed (revealed)</dt>
        <dd className="break-all font-mono" data-testid="verify-shoe-seed">
          {shoe.serverSeed}
        </dd>
      </div>
      <div>
        <dt className="font-semibold uppercase tracking-wide text-muted-foreground">Client seeds of the seated players</dt>
        {shoe.seats.map((s) => (
          <dd key={s.seat} className="break-all font-mono">
            seat {s.seat}: {s.clientSeed}
          </dd>
        ))}
      </div>
      <div>
        <dt className="font-semibold uppercase tracking-wide text-muted-foreground">Table client seed (SHA-256 of the seat lines)</dt>
        <dd className="break-all font-mono">{v.tableClientSeed}</dd>
      </div>
    </dl>
  );
}

function ShoeVerification({ v, checks, rounding }: { v: VerifiedShoe; checks: ShoeRoundCheck[]; rounding: 1 | 2 }) {
  const c = v.commitment;
  const mismatched = checks.filter((x) => x.matches !== true).length;
  const allMatch = mismatched === 0 && c.matches === true;
  return (
    <>
      <Card data-testid="verify-commitment" data-matches={c.matches === null ? "none" : String(c.matches)} className="space-y-2">
        <h2 className="font-bold">Commitment</h2>
        <p className="text-xs text-muted-foreground">SHA-256 of the shoe&apos;s server seed</p>
        <code data-testid="verify-seed-hash" className="block break-all rounded-md bg-muted px-2 py-1 font-mono text-xs">
          {c.serverSeedHash}
        </code>
        {c.matches ? (
          <p className="flex items-center gap-2 text-sm font-semibold text-positive">
            <CheckCircle2 className="h-4 w-4" aria-hidden /> Matches the hash shown before the shoe&apos;s first round
          </p>
        ) : (
          <p className="flex items-center gap-2 text-sm font-semibold text-destructive">
            <XCircle className="h-4 w-4" aria-hidden /> Does not match the hash shown before the shoe&apos;s first round {c.expected}
          </p>
        )}
      </Card>

      <Card data-testid="verify-shoe-result" data-matches={String(allMatch)} data-rounds={v.rounds.length} className="space-y-2">
        <h2 className="font-bold">Outcome</h2>
        <p data-testid="verify-summary" className={cn("text-sm font-semibold", allMatch ? "text-positive" : "text-destructive")}>
          {allMatch
            ? `Every round matches the record: all ${v.rounds.length} rounds deal again the same cards, stakes and payouts.`
            : `${mismatched} of ${v.rounds.length} rounds do not match the record.`}
        </p>
        <p className="text-xs text-muted-foreground">
          {v.complete
            ? "The shoe is complete: its last round was dealt past the cut card."
            : `The shoe ended before its cut card (its table closed) after ${v.rounds.length} rounds.`}{" "}
          Payout rounding: rule {rounding} ({roundingRuleName(rounding)}).
        </p>
      </Card>

      <Card className="space-y-3">
        <h2 className="font-bold">Round by round</h2>
        <ol className="space-y-3">
          {v.rounds.map((r, i) => {
            const check = checks[i]!;
            return (
              <li
                key={r.round}
                id={`round-${r.round}`}
                data-testid="verify-shoe-round"
                data-matches={String(check.matches)}
                className="space-y-1 border-t border-border pt-2 first:border-t-0 first:pt-0"
              >
                <p className="flex flex-wrap items-center gap-x-2 text-sm font-semibold">
                  Round {r.round}
                  <span className="font-normal text-muted-foreground">
                    cards {r.cards[0]}–{r.cards[1] - 1}
                  </span>
                  <Match ok={check.matches} />
                </p>
                <p className="text-sm">
                  <span className="text-muted-foreground">Dealer </span>
                  <Cards cards={r.dealer} />
                  {r.dealerBlackjack && <span className="text-muted-foreground"> (blackjack)</span>}
                  {check.dealer === false && <span className="text-destructive"> other cards recorded</span>}
                </p>
                <ul className="text-sm">
                  {r.seats.map((s) => {
                    const seatCheck = check.seats.find((x) => x.seat === s.seat);
                    return (
                      <li key={s.seat} data-testid="verify-shoe-seat" data-matches={String(seatCheck?.matches ?? false)}>
                        <span className="text-muted-foreground">Seat {s.seat} </span>
                        {s.hands.map((h, k) => (
                          <span key={k}>
                            {k > 0 && <span className="text-muted-foreground"> | </span>}
                            <Cards cards={h.cards} />
                            {h.result && <span className="text-muted-foreground"> {h.result}</span>}
                          </span>
                        ))}
                        <span className="tabular-nums text-muted-foreground">
                          {" "}
                          · staked {s.staked.toLocaleString("en-US")}, paid {s.payout.toLocaleString("en-US")}
                        </span>
                        {seatCheck?.problem && <span className="text-destructive"> ({seatCheck.problem})</span>}
                      </li>
                    );
                  })}
                  {check.seats
                    .filter((x) => !r.seats.some((s) => s.seat === x.seat))
                    .map((x) => (
                      <li key={`extra-${x.seat}`} className="text-destructive">
                        Seat {x.seat}: {x.problem}
                      </li>
                    ))}
                </ul>
              </li>
            );
          })}
        </ol>
      </Card>
    </>
  );
}

function Match({ ok }: { ok: boolean | null }) {
  if (ok)
    return (
      <span className="inline-flex items-center gap-1 text-xs font-semibold text-positive">
        <CheckCircle2 className="h-3.5 w-3.5" aria-hidden /> matches the record
      </span>
    );
  return (
    <span className="inline-flex items-center gap-1 text-xs font-semibold text-destructive">
      <XCircle className="h-3.5 w-3.5" aria-hidden /> {ok === null ? "not in the record" : "does not match the record"}
    </span>
  );
}

/** Cards as text: "10♦ A♠". */
function Cards({ cards }: { cards: readonly CardCode[] }) {
  return <span className="font-mono">{cards.map(cardName).join(" ")}</span>;
}
