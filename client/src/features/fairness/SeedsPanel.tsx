import { useEffect, useState } from "react";
import { Link } from "wouter";
import { RefreshCw, ShieldCheck } from "lucide-react";
import { verifyHref } from "@casino/common/verifiers/verify-link";
import type { ActiveSeedView, RevealedSeed, RotateAnswer } from "@casino/common/protocol";
import { api, messageOf, seg } from "../../net/api";
import { randomClientSeed } from "../../net/client-seed";
import { refreshHistory } from "../../games/shared/history";
import { useRoom } from "../../store/room";
import { useSession } from "../../store/session";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";

/** What the client seed must be (`clientSeed` in common/protocol.ts), checked before asking. */
const CLIENT_SEED = /^[\x21-\x7e]{1,64}$/;

/** A hash or seed on one line, breakable anywhere, copyable. */
function Mono({ testId, children }: { testId: string; children: string }) {
  return (
    <code data-testid={testId} className="block break-all rounded-md bg-muted px-2 py-1 font-mono text-xs">
      {children}
    </code>
  );
}

function Field({ label, hint, children }: { label: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <dt className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd>
        {children}
        {hint && <p className="mt-1 text-xs text-muted-foreground">{hint}</p>}
      </dd>
    </div>
  );
}

/** A revealed pair as a link to the verifier, pre-filled with its seeds and its first nonce. */
const pairHref = (seed: RevealedSeed) =>
  verifyHref({ game: "", serverSeed: seed.serverSeed, serverSeedHash: seed.serverSeedHash, clientSeed: seed.clientSeed, nonce: 0 });

/**
 * The seeds panel: the active pair (client seed, SHA-256 of the server seed, nonce), the SHA-256 of the
 * next server seed (committed before the player picks the client seed it will serve with), a new client
 * seed or a plain rotation, and the seeds revealed so far, each with a link to the verifier.
 */
export function SeedsPanel({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const connection = useRoom((s) => s.connection);
  const seeds = useRoom((s) => s.seeds);
  const openRound = useRoom((s) => s.openRound);
  const player = useSession((s) => s.player);
  const [clientSeed, setClientSeed] = useState(randomClientSeed);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [justRevealed, setJustRevealed] = useState<RevealedSeed | null>(null);
  const [revealed, setRevealed] = useState<RevealedSeed[]>([]);

  // The revealed seeds, read when the panel opens and after each change.
  const [version, setVersion] = useState(0);
  useEffect(() => {
    if (!open || !player) return;
    let live = true;
    api<{ active: ActiveSeedView; revealed: RevealedSeed[] }>(`/player/${seg(player.id)}/seeds`)
      .then((answer) => live && setRevealed(answer.revealed))
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [open, player, version]);

  const change = async (kind: "seed:rotate" | "seed:client") => {
    if (!connection) return setError("Not connected to the casino");
    if (kind === "seed:client" && !CLIENT_SEED.test(clientSeed))
      return setError("A client seed is 1 to 64 printable characters without spaces");
    setBusy(true);
    setError(null);
    try {
      const answer = await connection.request<RotateAnswer>(kind, kind === "seed:client" ? { clientSeed } : {});
      setJustRevealed(answer.revealed);
      setClientSeed(randomClientSeed());
      refreshHistory(); // the rounds of the revealed seed can now be verified
      setVersion((v) => v + 1);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={
        <span className="flex items-center gap-2">
          <ShieldCheck className="h-5 w-5 text-primary-ink" aria-hidden /> Provably fair seeds
        </span>
      }
      description="Every outcome comes from your seed pair and the nonce. The server seed is shown only as its SHA-256 until you rotate; then it is revealed and every round played with it can be checked."
      className="max-w-2xl"
    >
      <div data-testid="seeds-panel" className="space-y-5 text-sm">
        {justRevealed && (
          <section data-testid="seeds-revealed" className="space-y-2 rounded-xl border border-primary/40 bg-primary/5 p-3">
            <h3 className="font-semibold">Revealed server seed</h3>
            <Mono testId="seeds-revealed-seed">{justRevealed.serverSeed}</Mono>
            <p className="text-xs text-muted-foreground">
              Its SHA-256 is <span className="break-all font-mono">{justRevealed.serverSeedHash}</span>, the hash you were shown. It served{" "}
              {justRevealed.nonces} nonce{justRevealed.nonces === 1 ? "" : "s"} with client seed{" "}
              <span className="break-all font-mono">{justRevealed.clientSeed}</span>.
            </p>
            <Link
              href={pairHref(justRevealed)}
              className="text-sm font-semibold text-primary-ink underline"
              data-testid="seeds-revealed-verify"
            >
              Verify
            </Link>
          </section>
        )}

        {!seeds ? (
          <p className="text-muted-foreground">Connecting to the casino…</p>
        ) : (
          <dl className="grid gap-3">
            <Field label="Active client seed">
              <Mono testId="seeds-client-seed">{seeds.clientSeed}</Mono>
            </Field>
            <Field label="Active server seed (SHA-256)">
              <Mono testId="seeds-server-hash">{seeds.serverSeedHash}</Mono>
            </Field>
            <Field label="Nonce" hint="Bets and daily spins played with this pair; the next one uses this number.">
              <span data-testid="seeds-nonce" className="font-mono">
                {seeds.nonce}
              </span>
            </Field>
            <Field label="Next server seed (SHA-256)" hint="Committed now: your next pair uses this seed, whatever client seed you choose.">
              <Mono testId="seeds-next-hash">{seeds.nextServerSeedHash}</Mono>
            </Field>
          </dl>
        )}

        <section className="space-y-2 rounded-xl border border-border p-3">
          <label htmlFor="new-client-seed" className="block text-xs font-semibold uppercase tracking-wide text-muted-foreground">
            New client seed
          </label>
          <input
            id="new-client-seed"
            data-testid="seeds-new-client-seed"
            value={clientSeed}
            maxLength={64}
            spellCheck={false}
            onChange={(e) => setClientSeed(e.target.value)}
            className="h-10 w-full rounded-lg border border-border bg-background px-3 font-mono text-xs"
          />
          <div className="flex flex-wrap gap-2">
            <Button
              data-testid="seeds-set-client"
              disabled={busy || !seeds || openRound !== null}
              onClick={() => void change("seed:client")}
            >
              Use this client seed
            </Button>
            <Button
              data-testid="seeds-rotate"
              variant="outline"
              disabled={busy || !seeds || openRound !== null}
              onClick={() => void change("seed:rotate")}
            >
              <RefreshCw className="h-4 w-4" aria-hidden /> Rotate, keep client seed
            </Button>
          </div>
          <p className="text-xs text-muted-foreground">
            Either one reveals the active server seed and starts a new pair with the next server seed above.
            {openRound && " Finish your open round first."}
          </p>
          {error && (
            <p role="alert" className="text-xs text-destructive">
              {error}
            </p>
          )}
        </section>

        {revealed.length > 0 && (
          <section className="space-y-2">
            <h3 className="font-semibold">Revealed seeds</h3>
            <ul className="space-y-1" data-testid="seeds-revealed-list">
              {revealed.slice(0, 10).map((s) => (
                <li key={s.serverSeedHash} className="flex items-center gap-2 text-xs">
                  <span className="min-w-0 flex-1 truncate font-mono" title={s.serverSeed}>
                    {s.serverSeed}
                  </span>
                  <span className="shrink-0 text-muted-foreground">{s.nonces} nonces</span>
                  <Link href={pairHref(s)} className="shrink-0 text-primary-ink underline">
                    Verify
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        )}

        <p className="flex flex-wrap gap-4 text-xs">
          <Link href="/verify" className="text-primary-ink underline">
            Verify any round
          </Link>
          <Link href="/fairness" className="text-primary-ink underline">
            How it works (the exact specification)
          </Link>
        </p>
      </div>
    </Dialog>
  );
}
