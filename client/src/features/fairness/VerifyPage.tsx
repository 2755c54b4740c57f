import { useMemo, useState, type ReactNode } from "react";
import { Link } from "wouter";
import { ArrowLeft, CheckCircle2, ShieldCheck, XCircle } from "lucide-react";
import { gameDefinition } from "@casino/common/catalogue";
import { DAILY_SPIN } from "@casino/common/constants";
import { verifyRound, type RoundVerification } from "@casino/common/verifiers/verify";
import { roundingRuleName } from "@casino/common/fairness/rounding";
import { paidText } from "@casino/common/format";
import {
  holdemHandOfVerifyQuery,
  parseVerifyQuery,
  shoeOfVerifyQuery,
  verifyRequestOf,
  type VerifyForm,
} from "@casino/common/verifiers/verify-link";
import { ENGINES } from "@casino/common/games/registry";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { cn } from "../../ui/cn";
import { ModeTabs } from "../../ui/ModeTabs";
import { ShoeVerifier } from "./ShoeVerifier";
import { HandVerifier } from "./HandVerifier";
import { backToCasino } from "../../app/address";

type Mode = "round" | "shoe" | "hand";
const MODES: { id: Mode; label: string }[] = [
  { id: "round", label: "A round" },
  { id: "shoe", label: "A table shoe" },
  { id: "hand", label: "A Hold'em hand" },
];
const HEADINGS: Record<Mode, string> = { round: "Verify a round", shoe: "Verify a shoe", hand: "Verify a hand" };

const GAME_CHOICES = [
  ...Object.keys(ENGINES).map((id) => ({ id, title: gameDefinition(id)?.title ?? id })),
  { id: DAILY_SPIN, title: "Daily spin" },
].sort((a, b) => a.title.localeCompare(b.title));

type Outcome =
  | { kind: "empty" }
  | { kind: "invalid"; errors: Partial<Record<keyof VerifyForm, string>> }
  | { kind: "refused"; message: string }
  | { kind: "done"; v: RoundVerification };

/** Re-derives the form's round in the browser with the engines the server runs (common/verifiers/verify.ts). */
function derive(form: VerifyForm): Outcome {
  if (!form.game && !form.serverSeed && !form.clientSeed) return { kind: "empty" };
  const parsed = verifyRequestOf(form);
  if (!parsed.ok) return { kind: "invalid", errors: parsed.errors };
  try {
    return { kind: "done", v: verifyRound(parsed.request) };
  } catch (error) {
    return { kind: "refused", message: error instanceof Error ? error.message : String(error) };
  }
}

const inputClass = "w-full rounded-lg border border-border bg-background px-3 py-2 font-mono text-xs";

function Input(props: {
  name: keyof VerifyForm;
  label: string;
  form: VerifyForm;
  set(name: keyof VerifyForm, value: string): void;
  error?: string;
  hint?: string;
  area?: boolean;
}) {
  const { name, label, form, set, error, hint, area } = props;
  const id = `verify-${name}`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        {label}
      </label>
      {area ? (
        <textarea
          id={id}
          data-testid={id}
          rows={2}
          spellCheck={false}
          value={form[name]}
          onChange={(e) => set(name, e.target.value)}
          className={inputClass}
        />
      ) : (
        <input
          id={id}
          data-testid={id}
          spellCheck={false}
          value={form[name]}
          onChange={(e) => set(name, e.target.value)}
          className={cn(inputClass, "h-10")}
        />
      )}
      {error ? <p className="text-xs text-destructive">{error}</p> : hint ? <p className="text-xs text-muted-foreground">{hint}</p> : null}
    </div>
  );
}

/**
 * The verifier (`/verify`): a round from its seeds, nonce, game, opening bet, params and actions,
 * re-derived here in the browser with the same common code the server runs, step by step, and the
 * server seed checked against the SHA-256 commitment shown before it was revealed. Needs no sign-in and
 * no server: a link from the history arrives pre-filled. In its shoe mode (`/verify?shoe=<id>`) it
 * reads a finished shoe of the blackjack table from the server and deals every round of it again; in
 * its hand mode (`/verify?holdemHand=<id>`) a finished hand of the Hold'em table.
 */
export default function VerifyPage() {
  const [shoeId] = useState(() => shoeOfVerifyQuery(window.location.search));
  const [handId] = useState(() => holdemHandOfVerifyQuery(window.location.search));
  const [mode, setMode] = useState<Mode>(shoeId !== null ? "shoe" : handId !== null ? "hand" : "round");
  const [form, setForm] = useState<VerifyForm>(() => parseVerifyQuery(window.location.search));
  const set = (name: keyof VerifyForm, value: string) => setForm((f) => ({ ...f, [name]: value }));
  const outcome = useMemo(() => derive(form), [form]);
  const errors = outcome.kind === "invalid" ? outcome.errors : {};

  return (
    <main className="mx-auto w-full max-w-5xl flex-1 space-y-4 px-3 py-4 sm:px-4" data-testid="verify-page">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          href="/"
          onClick={backToCasino}
          className="inline-flex h-8 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold hover:bg-muted"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to the casino
        </Link>
        <h1 className="flex items-center gap-2 text-2xl font-bold">
          <ShieldCheck className="h-6 w-6 text-primary-ink" aria-hidden /> {HEADINGS[mode]}
        </h1>
        <Link href="/fairness" className="ml-auto inline-flex min-h-8 items-center text-sm text-primary-ink underline">
          How it works
        </Link>
      </div>

      <ModeTabs label="What to verify" tabs={MODES} value={mode} onChange={setMode} layoutId="verify-mode" testIdPrefix="verify-mode" />

      {mode === "shoe" ? (
        <ShoeVerifier initialId={shoeId ?? ""} />
      ) : mode === "hand" ? (
        <HandVerifier initialId={handId ?? ""} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <Card className="space-y-3">
            <div className="space-y-1">
              <label htmlFor="verify-game" className="block text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                Game
              </label>
              <select
                id="verify-game"
                data-testid="verify-game"
                value={form.game}
                onChange={(e) => set("game", e.target.value)}
                className={cn(inputClass, "h-10 font-sans text-sm")}
              >
                <option value="">Choose a game…</option>
                {GAME_CHOICES.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.title}
                  </option>
                ))}
              </select>
              {errors.game && <p className="text-xs text-destructive">{errors.game}</p>}
            </div>
            <Input name="serverSeed" label="Server seed (revealed)" form={form} set={set} error={errors.serverSeed} />
            <Input
              name="serverSeedHash"
              label="Server seed hash shown before (SHA-256)"
              form={form}
              set={set}
              error={errors.serverSeedHash}
              hint="Optional: checked against the seed"
            />
            <Input name="clientSeed" label="Client seed" form={form} set={set} error={errors.clientSeed} />
            <div className="grid grid-cols-2 gap-3">
              <Input name="nonce" label="Nonce" form={form} set={set} error={errors.nonce} />
              <Input
                name="amount"
                label="Opening bet"
                form={form}
                set={set}
                error={errors.amount}
                hint={form.game === DAILY_SPIN ? "Not needed for a spin" : "Coins"}
              />
            </div>
            <Input name="params" label="Bet params (JSON)" form={form} set={set} error={errors.params} area />
            <Input name="actions" label="Actions (JSON list)" form={form} set={set} error={errors.actions} area />
            <Input
              name="rounding"
              label="Payout rounding rule"
              form={form}
              set={set}
              error={errors.rounding}
              hint="As the round's history row states it: 2 unbiased, 1 (or empty) rounded down for older rounds"
            />
            <Button variant="outline" size="sm" onClick={() => setForm(parseVerifyQuery(""))}>
              Clear
            </Button>
          </Card>

          <div className="space-y-4">
            {outcome.kind === "empty" && (
              <Card>
                <p className="text-muted-foreground">
                  Enter a round, or open one from your bets: once you rotate your seeds, each row of your history links here pre-filled.
                </p>
              </Card>
            )}
            {outcome.kind === "invalid" && (
              <Card data-testid="verify-invalid">
                <p className="text-muted-foreground">Fill in the fields marked above to re-derive the round.</p>
              </Card>
            )}
            {outcome.kind === "refused" && (
              <Card role="alert" data-testid="verify-error">
                <p className="font-semibold text-destructive">This round cannot be re-derived</p>
                <p className="mt-1 text-sm">{outcome.message}</p>
              </Card>
            )}
            {outcome.kind === "done" && <Verification v={outcome.v} />}
          </div>
        </div>
      )}
    </main>
  );
}

function Verification({ v }: { v: RoundVerification }) {
  const c = v.commitment;
  return (
    <>
      <Card data-testid="verify-commitment" data-matches={c.matches === null ? "none" : String(c.matches)} className="space-y-2">
        <h2 className="font-bold">Commitment</h2>
        <p className="text-xs text-muted-foreground">SHA-256 of the server seed</p>
        <code data-testid="verify-seed-hash" className="block break-all rounded-md bg-muted px-2 py-1 font-mono text-xs">
          {c.serverSeedHash}
        </code>
        {c.matches === null ? (
          <p className="text-sm text-muted-foreground">Give the hash you were shown before the seed was revealed to check it.</p>
        ) : c.matches ? (
          <p className="flex items-center gap-2 text-sm font-semibold text-positive">
            <CheckCircle2 className="h-4 w-4" aria-hidden /> Matches the hash shown before the seed was revealed
          </p>
        ) : (
          <p className="flex items-center gap-2 text-sm font-semibold text-destructive">
            <XCircle className="h-4 w-4" aria-hidden /> Does not match the given hash {c.expected}
          </p>
        )}
      </Card>

      <Card
        data-testid="verify-result"
        data-stake={v.totalStake}
        data-payout={v.totalPayout}
        data-result={v.result ?? ""}
        data-done={String(v.done)}
        className="space-y-2"
      >
        <h2 className="font-bold">Outcome</h2>
        <p data-testid="verify-summary" className="text-sm font-semibold">
          {v.summary}
        </p>
        {v.game !== DAILY_SPIN && (
          <p data-testid="verify-rounding-rule" className="text-xs text-muted-foreground">
            Payout rounding: rule {v.rounding} ({roundingRuleName(v.rounding)})
          </p>
        )}
        <dl className="grid grid-cols-3 gap-2 text-sm">
          <Stat label="Staked">{v.totalStake.toLocaleString("en-US")}</Stat>
          <Stat label="Paid">{v.totalPayout.toLocaleString("en-US")}</Stat>
          <Stat label="Result">{v.result ?? "open"}</Stat>
        </dl>
        {v.exactPayout !== null && (
          // what the payout was before rounding, told as everywhere else
          <p data-testid="verify-exact" className="text-xs text-muted-foreground">
            Before rounding: {paidText(v.totalPayout, v.exactPayout)}
          </p>
        )}
        <details>
          <summary className="cursor-pointer text-xs text-muted-foreground">The outcome as the server records it</summary>
          <pre data-testid="verify-view" className="mt-1 overflow-x-auto rounded-md bg-muted p-2 text-xs">
            {JSON.stringify(v.view)}
          </pre>
        </details>
      </Card>

      <Card className="space-y-3">
        <h2 className="font-bold">Step by step</h2>
        <ol className="space-y-3">
          {v.steps.map((step, i) => (
            <li key={i} data-testid="verify-step" className="space-y-1 border-t border-border pt-2 first:border-t-0 first:pt-0">
              <p className="text-sm font-semibold">
                Step {i + 1}: {i === 0 ? step.kind : JSON.stringify(step.action)}
                {step.stake > 0 && <span className="font-normal text-muted-foreground"> (stakes {step.stake})</span>}
              </p>
              {step.floats.length > 0 && (
                <ul className="font-mono text-[11px] text-muted-foreground">
                  {step.floats.map((f) => (
                    <li key={f.cursor}>
                      float #{f.cursor} (block {f.block}, bytes {f.bytes[0]}–{f.bytes[1]}): {f.value}
                    </li>
                  ))}
                </ul>
              )}
              <ul className="text-sm">
                {step.lines.map((line, j) => (
                  <li key={j}>{line}</li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      </Card>
    </>
  );
}

function Stat({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg bg-muted px-2 py-1">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="font-semibold tabular-nums">{children}</dd>
    </div>
  );
}
