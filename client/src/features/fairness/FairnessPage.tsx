import { Link } from "wouter";
import { ArrowLeft } from "lucide-react";
import { marked } from "marked";
// The published specification itself (docs/fairness.md), so the page can never differ from it.
import specification from "../../../../docs/fairness.md?raw";
import { withoutSourcePaths } from "./spec-text";
import { backToCasino } from "../../app/address";

// Our own document, parsed once: no HTML from anyone else reaches this page.
const HTML = marked.parse(withoutSourcePaths(specification), { gfm: true, async: false });

/** Typography for the rendered document, scoped to it. */
const PROSE = [
  "[&_h1]:text-2xl [&_h1]:font-extrabold [&_h1]:mb-2",
  "[&_h2]:text-xl [&_h2]:font-bold [&_h2]:pt-5 [&_h2]:border-t [&_h2]:border-border",
  "[&_h3]:text-base [&_h3]:font-bold [&_h3]:pt-3",
  "[&_h4]:font-semibold [&_h4]:pt-2",
  "[&_ul]:list-disc [&_ul]:pl-5 [&_ul]:space-y-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_ol]:space-y-1",
  "[&_a]:text-primary-ink [&_a]:underline [&_strong]:font-semibold",
  "[&_code]:rounded [&_code]:bg-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-[0.85em] [&_code]:break-words",
  "[&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-muted [&_pre]:p-3 [&_pre]:text-xs [&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_table]:block [&_table]:overflow-x-auto [&_table]:text-xs [&_table]:border-collapse",
  "[&_th]:border [&_th]:border-border [&_th]:bg-muted [&_th]:px-2 [&_th]:py-1 [&_th]:text-left",
  "[&_td]:border [&_td]:border-border [&_td]:px-2 [&_td]:py-1 [&_td]:align-top",
].join(" ");

/** `/fairness`: the exact specification of seeds, the float stream and every game's mapping. */
export default function FairnessPage() {
  return (
    <main className="mx-auto w-full max-w-4xl flex-1 space-y-4 px-3 py-4 sm:px-4" data-testid="fairness-page">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          href="/"
          onClick={backToCasino}
          className="inline-flex h-8 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold hover:bg-muted"
        >
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to the casino
        </Link>
        <Link href="/verify" className="ml-auto text-sm text-primary-ink underline">
          Verify a round
        </Link>
      </div>
      <article
        className={`space-y-3 rounded-2xl border border-border bg-card p-4 text-sm leading-relaxed sm:p-6 ${PROSE}`}
        dangerouslySetInnerHTML={{ __html: HTML }}
      />
    </main>
  );
}
