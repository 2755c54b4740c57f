import type { ReactNode } from "react";
import { Link } from "wouter";
import { ArrowLeft } from "lucide-react";
// The published specification itself (docs/fairness.md), so the page can never differ from it.
import specification from "../../../../docs/fairness.md?raw";

type Block =
  | { kind: "heading"; level: number; text: string }
  | { kind: "code"; text: string }
  | { kind: "list"; items: string[] }
  | { kind: "text"; text: string };

/**
 * Just enough of Markdown to read the document on a phone: headings, fenced code and tables as they
 * are written, lists, and paragraphs re-flowed (the source wraps its lines at a fixed width).
 */
function blocksOf(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length;) {
    const line = lines[i]!;
    if (line.startsWith("```")) {
      const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
      const stop = end < 0 ? lines.length : end;
      blocks.push({ kind: "code", text: lines.slice(i + 1, stop).join("\n") });
      i = stop + 1;
    } else if (/^#{1,6} /.test(line)) {
      const level = line.indexOf(" ");
      blocks.push({ kind: "heading", level, text: line.slice(level + 1) });
      i++;
    } else if (line.trim() === "") {
      i++;
    } else {
      const para: string[] = [];
      while (i < lines.length && lines[i]!.trim() !== "" && !lines[i]!.startsWith("```") && !/^#{1,6} /.test(lines[i]!))
        para.push(lines[i++]!);
      if (para[0]!.startsWith("|")) blocks.push({ kind: "code", text: para.join("\n") });
      else if (/^\s*- /.test(para[0]!)) {
        const items: string[] = [];
        for (const l of para) {
          if (/^\s*- /.test(l)) items.push(l.replace(/^\s*- /, ""));
          else items[items.length - 1] += ` ${l.trim()}`;
        }
        blocks.push({ kind: "list", items });
      } else blocks.push({ kind: "text", text: para.map((l) => l.trim()).join(" ") });
    }
  }
  return blocks;
}

/** `code` spans as code; everything else as written. */
const inline = (text: string): ReactNode[] =>
  text.split("`").map((part, i) =>
    i % 2 === 1 ? (
      <code key={i} className="rounded bg-muted px-1 font-mono text-[0.85em]">
        {part}
      </code>
    ) : (
      part
    ),
  );

const BLOCKS = blocksOf(specification);

/** `/fairness`: the exact specification of seeds, the float stream and every game's mapping. */
export default function FairnessPage() {
  return (
    <main className="mx-auto w-full max-w-4xl flex-1 space-y-4 px-3 py-4 sm:px-4" data-testid="fairness-page">
      <div className="flex flex-wrap items-center gap-2">
        <Link href="/" className="inline-flex h-8 items-center gap-1.5 rounded-lg px-3 text-sm font-semibold hover:bg-muted">
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to the casino
        </Link>
        <Link href="/verify" className="ml-auto text-sm text-primary-ink underline">
          Verify a round
        </Link>
      </div>
      <article className="space-y-3 rounded-2xl border border-border bg-card p-4 text-sm leading-relaxed sm:p-6">
        {BLOCKS.map((b, i) => {
          if (b.kind === "heading") {
            const size = b.level === 1 ? "text-2xl" : b.level === 2 ? "text-xl pt-3" : "text-base pt-2";
            return (
              <h2 key={i} className={`font-bold ${size}`}>
                {inline(b.text)}
              </h2>
            );
          }
          if (b.kind === "code") {
            return (
              <pre key={i} className="overflow-x-auto rounded-lg bg-muted p-3 font-mono text-xs">
                {b.text}
              </pre>
            );
          }
          if (b.kind === "list") {
            return (
              <ul key={i} className="list-disc space-y-1 pl-5">
                {b.items.map((item, j) => (
                  <li key={j}>{inline(item)}</li>
                ))}
              </ul>
            );
          }
          return <p key={i}>{inline(b.text)}</p>;
        })}
      </article>
    </main>
  );
}
