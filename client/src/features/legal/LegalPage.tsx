import type { ReactNode } from "react";
import { ArrowLeft } from "lucide-react";
import { useLocation } from "wouter";
import { useSession } from "../../store/session";
import { Button } from "../../ui/Button";

export const LAST_UPDATED = "30 October 2025";

export interface LegalSection {
  title: string;
  body: ReactNode;
}

/** A legal page: numbered sections, the date, and Back to Lobby for a signed-in (non-guest) player. */
export function LegalPage({ title, intro, sections }: { title: string; intro: ReactNode; sections: LegalSection[] }) {
  const [, navigate] = useLocation();
  const authenticated = useSession((s) => s.phase === "ready" && s.player !== null && !s.player.isGuest);
  return (
    <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-6">
      {authenticated && (
        <Button variant="ghost" size="sm" className="mb-4" onClick={() => navigate("/")}>
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Lobby
        </Button>
      )}
      <h1 className="text-3xl font-extrabold tracking-tight">{title}</h1>
      <p className="mt-1 text-sm text-muted-foreground">Last updated: {LAST_UPDATED}</p>
      <div className="mt-4 text-muted-foreground">{intro}</div>
      <ol className="mt-6 space-y-6">
        {sections.map((s, i) => (
          <li key={s.title} data-testid="legal-section">
            <h2 className="text-lg font-bold">
              {i + 1}. {s.title}
            </h2>
            <div className="mt-2 space-y-2 leading-relaxed [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-5">{s.body}</div>
          </li>
        ))}
      </ol>
    </main>
  );
}
