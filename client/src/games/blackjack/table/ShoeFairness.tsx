import { useState } from "react";
import type { RevealedShoe, TableSnapshot } from "@casino/common/table";
import { verifyShoe } from "@casino/common/verifiers/verify-shoe";
import { shoeVerifyHref } from "@casino/common/verifiers/verify-link";
import type { TableSession } from "../../contract";
import { errorText } from "../../shared/use-round";

type Check = { kind: "idle" } | { kind: "busy" } | { kind: "done"; ok: boolean; text: string };

/**
 * The shoe's fairness at a glance: the commitment of the shoe being dealt (shown before its first
 * round), and the previous shoe's revealed seed, which the browser checks against its commitment and
 * deals again round by round from its record (`GET /api/tables/shoes/:id`, `verifyShoe`).
 */
export function ShoeFairness({ table, session }: { table: TableSnapshot; session: TableSession | null }) {
  const [check, setCheck] = useState<Check>({ kind: "idle" });
  const previous = table.previousShoe;

  const verify = async () => {
    if (!previous || !session) return;
    setCheck({ kind: "busy" });
    try {
      const res = await fetch(`/api/tables/shoes/${encodeURIComponent(previous.id)}`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      if (!res.ok) throw new Error(`The shoe's record could not be read (${res.status})`);
      const shoe = (await res.json()) as RevealedShoe;
      const v = verifyShoe({
        serverSeed: shoe.serverSeed,
        serverSeedHash: previous.serverSeedHash,
        seats: shoe.seats,
        rounds: shoe.rounds,
        rounding: shoe.rounding,
      });
      const ok = v.commitment.matches === true && shoe.serverSeed === previous.serverSeed;
      setCheck({
        kind: "done",
        ok,
        text: ok
          ? `Verified: the seed matches its commitment and all ${v.rounds.length} rounds deal again the same.`
          : "Not verified: the revealed seed does not match the commitment shown before the shoe.",
      });
    } catch (e) {
      setCheck({ kind: "done", ok: false, text: `Not verified: ${errorText(e)}` });
    }
  };

  return (
    <details className="rounded-xl border border-border bg-card p-3 text-xs" data-testid="table-fairness">
      <summary className="min-h-8 cursor-pointer content-center text-sm font-semibold">Provably fair shoe</summary>
      <div className="mt-2 flex flex-col gap-2">
        {table.shoe ? (
          <dl>
            <dt className="text-muted-foreground">This shoe&apos;s commitment (SHA-256 of its seed), {table.shoe.rounds} rounds dealt</dt>
            <dd className="break-all font-mono" data-testid="table-shoe-hash">
              {table.shoe.serverSeedHash}
            </dd>
          </dl>
        ) : (
          <p className="text-muted-foreground">The next shoe is committed before its first round.</p>
        )}
        {previous ? (
          <dl>
            <dt className="text-muted-foreground">Previous shoe&apos;s revealed seed</dt>
            <dd className="break-all font-mono" data-testid="table-previous-seed">
              {previous.serverSeed}
            </dd>
            <dd className="mt-1 flex flex-wrap items-center gap-2">
              <button
                type="button"
                data-testid="table-verify-shoe"
                disabled={!session || check.kind === "busy"}
                onClick={() => void verify()}
                className="min-h-8 rounded-lg bg-muted px-3 font-semibold ring-1 ring-border hover:bg-border disabled:opacity-50"
              >
                {check.kind === "busy" ? "Checking…" : "Verify the previous shoe"}
              </button>
              <a href={shoeVerifyHref(previous.id)} className="text-primary-ink underline" data-testid="table-shoe-verifier-link">
                Every round in the verifier
              </a>
              <a href="/fairness" className="text-primary-ink underline">
                How it works
              </a>
            </dd>
            {check.kind === "done" && (
              <dd
                role="status"
                data-testid="table-verify-result"
                className={`mt-1 font-medium ${check.ok ? "text-positive" : "text-destructive"}`}
              >
                {check.text}
              </dd>
            )}
          </dl>
        ) : (
          <p className="text-muted-foreground">The seed is revealed when the shoe reaches its cut card.</p>
        )}
      </div>
    </details>
  );
}
