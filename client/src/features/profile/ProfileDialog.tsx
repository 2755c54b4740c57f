import { useEffect, useState } from "react";
import { Link } from "wouter";
import { ChevronLeft, ChevronRight, RefreshCw } from "lucide-react";
import { GAMES, HOLDEM_GAME, HOLDEM_TITLE } from "@casino/common/catalogue";
import { formatNet } from "@casino/common/format";
import type { HistoryPage, PlayerSummary } from "@casino/common/api";
import { api, messageOf, seg } from "../../net/api";
import { useSession } from "../../store/session";
import { BetsTable, FairCell, fromHistory, gameTitle } from "../../games/shared/BetsTable";
import { formatCoins } from "../../games/shared/format";
import { Button } from "../../ui/Button";
import { Dialog } from "../../ui/Dialog";
import { useTags } from "../tags/useTags";

/** Rows a page of the profile's history. */
export const PROFILE_PAGE = 10;

interface Filters {
  game: string;
  result: string;
  /** local calendar days, "YYYY-MM-DD", as the date inputs give them */
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { game: "", result: "", from: "", to: "" };

/** The start of a local calendar day (plus `days`) as the ISO time the server reads. */
const dayStart = (day: string, days = 0): string => {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
};

/**
 * The filters as the server reads them (`historyFilter` in common/src/api.ts), for the totals and the
 * history alike: `to` takes in its whole day.
 */
function filterQuery(filters: Filters): URLSearchParams {
  const q = new URLSearchParams();
  if (filters.game) q.set("game", filters.game);
  if (filters.result) q.set("result", filters.result);
  if (filters.from) q.set("from", dayStart(filters.from));
  if (filters.to) q.set("to", dayStart(filters.to, 1));
  return q;
}

/** The history's query: the filters, and a page of them. */
function historyQuery(filters: Filters, before: string | null): string {
  const q = filterQuery(filters);
  q.set("limit", String(PROFILE_PAGE));
  if (before) q.set("before", before);
  return q.toString();
}

function Stat({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0 rounded-lg bg-muted/60 px-3 py-2">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-base font-bold tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** A step through the history's pages: back to newer rounds, or on to older ones. */
function PageStep({ to, disabled, onClick }: { to: "newer" | "older"; disabled: boolean; onClick(): void }) {
  return (
    <Button size="sm" variant="outline" disabled={disabled} onClick={onClick} data-testid={`profile-${to}`}>
      {to === "newer" ? (
        <>
          <ChevronLeft className="h-4 w-4" aria-hidden /> Newer
        </>
      ) : (
        <>
          Older <ChevronRight className="h-4 w-4" aria-hidden />
        </>
      )}
    </Button>
  );
}

const SELECT = "h-9 rounded-md border border-border bg-background px-2 text-sm";

/**
 * The player's profile, opened from the header's avatar: their totals (from the server's record of
 * the finished rounds, under the history's filters), their whole history with filters and pages, their tags, and what "not yet
 * revealed" in the Fair column means, with the way to reveal it (`onRotate`: the seeds panel).
 */
export default function ProfileDialog({
  open,
  onOpenChange,
  onRotate,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onRotate(): void;
}) {
  const player = useSession((s) => s.player);
  const { tags } = useTags(player?.id, open);
  /** the last totals read, with the filters they answer (totals of other filters are not shown) */
  const [totals, setTotals] = useState<{ query: string; summary: PlayerSummary } | null>(null);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  /** the `before` of each page shown so far: the last is the current page's (null for the first) */
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  /** the last page read, with the query it answers (a page of other filters is not shown) */
  const [read, setRead] = useState<{ query: string; page: HistoryPage } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const badSpan = filters.from !== "" && filters.to !== "" && filters.from > filters.to;
  const before = cursors[cursors.length - 1] ?? null;
  const query = historyQuery(filters, before);
  const page = read?.query === query ? read.page : null;
  const filtered = filterQuery(filters).toString();
  const summary = totals?.query === filtered ? totals.summary : null;

  useEffect(() => {
    if (!open || !player || badSpan) return;
    let live = true;
    api<PlayerSummary>(`/player/${seg(player.id)}/summary${filtered ? `?${filtered}` : ""}`).then(
      (answer) => live && setTotals({ query: filtered, summary: answer }),
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [open, player, filtered, badSpan]);

  useEffect(() => {
    if (!open || !player || badSpan) return;
    let live = true;
    api<HistoryPage>(`/player/${seg(player.id)}/history?${query}`).then(
      (answer) => {
        if (!live) return;
        setRead({ query, page: answer });
        setError(null);
      },
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [open, player, query, badSpan]);

  if (!player) return null;
  const filter = (next: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...next }));
    setCursors([null]);
  };
  const best = summary?.biggestWin ? fromHistory(summary.biggestWin) : null;
  const unlocked = tags?.filter((t) => t.unlocked) ?? [];

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Profile"
      description={`${player.username}: your rounds, your history and your tags.`}
      className="max-w-3xl"
    >
      <div className="space-y-5 text-sm" data-testid="profile">
        {error && (
          <p role="alert" className="text-destructive">
            {error}
          </p>
        )}

        <section aria-labelledby="profile-totals">
          <h3 id="profile-totals" className="font-semibold">
            Totals
          </h3>
          <p className="mb-2 text-xs text-muted-foreground" data-testid="profile-totals-scope">
            {filtered === ""
              ? "All your rounds."
              : filters.game === "daily-spin"
                ? "Daily spins stake nothing: they are listed in the history, not counted as rounds."
                : "The rounds that match the history's filters below."}
          </p>
          {badSpan ? (
            <p className="text-muted-foreground">—</p>
          ) : !summary ? (
            <p className="text-muted-foreground">Loading…</p>
          ) : (
            <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              <Stat label="Rounds" testId="profile-rounds">
                {summary.rounds.toLocaleString("en-US")}
              </Stat>
              <Stat label="Wagered" testId="profile-wagered">
                {formatCoins(summary.wagered)}
              </Stat>
              <Stat label="Net" testId="profile-net">
                <span className={summary.net > 0 ? "text-positive" : undefined}>{formatNet(summary.net)}</span>
              </Stat>
              <Stat label="Biggest win" testId="profile-biggest-win">
                {best ? (
                  <>
                    {formatNet(best.payout - best.stake)}{" "}
                    <span className="text-xs font-normal text-muted-foreground">{gameTitle(best.game)}</span>{" "}
                    <span className="text-xs font-normal">
                      <FairCell row={best} />
                    </span>
                  </>
                ) : (
                  "—"
                )}
              </Stat>
              <Stat label="Favourite game" testId="profile-favourite">
                {summary.favouriteGame ? (
                  <>
                    {gameTitle(summary.favouriteGame.gameType)}{" "}
                    <span className="text-xs font-normal text-muted-foreground">
                      {summary.favouriteGame.rounds} {summary.favouriteGame.rounds === 1 ? "round" : "rounds"}
                    </span>
                  </>
                ) : (
                  "—"
                )}
              </Stat>
            </dl>
          )}
        </section>

        <section aria-labelledby="profile-history" className="space-y-2">
          <h3 id="profile-history" className="font-semibold">
            History
          </h3>
          <div className="flex flex-wrap items-end gap-2 text-xs">
            <label className="flex flex-col gap-1">
              Game
              <select className={SELECT} value={filters.game} onChange={(e) => filter({ game: e.target.value })} data-testid="profile-game">
                <option value="">All games</option>
                {GAMES.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.title}
                  </option>
                ))}
                <option value="daily-spin">Daily spin</option>
                <option value={HOLDEM_GAME}>{HOLDEM_TITLE}</option>
              </select>
            </label>
            <label className="flex flex-col gap-1">
              Result
              <select
                className={SELECT}
                value={filters.result}
                onChange={(e) => filter({ result: e.target.value })}
                data-testid="profile-result"
              >
                <option value="">Any result</option>
                <option value="win">Won</option>
                <option value="lose">Lost</option>
                <option value="push">Push</option>
              </select>
            </label>
            <label className="flex flex-col gap-1">
              From
              <input
                type="date"
                className={SELECT}
                value={filters.from}
                onChange={(e) => filter({ from: e.target.value })}
                data-testid="profile-from"
              />
            </label>
            <label className="flex flex-col gap-1">
              To
              <input
                type="date"
                className={SELECT}
                value={filters.to}
                onChange={(e) => filter({ to: e.target.value })}
                data-testid="profile-to"
              />
            </label>
          </div>
          {badSpan ? (
            <p role="alert" className="text-destructive">
              The first day must not be after the last.
            </p>
          ) : !page ? (
            <p className="text-muted-foreground">Loading…</p>
          ) : page.items.length === 0 ? (
            <p className="text-muted-foreground" data-testid="profile-history-empty">
              {cursors.length > 1 ? "No older rounds." : "No rounds match."}
            </p>
          ) : (
            <div className="overflow-x-auto text-xs text-muted-foreground" data-testid="profile-history">
              <BetsTable rows={page.items.map(fromHistory)} showGame />
            </div>
          )}
          {page && !badSpan && page.archivedBefore ? (
            <p className="text-xs text-muted-foreground" data-testid="profile-history-archived">
              Older rounds (before {page.archivedBefore.slice(0, 10)}) are archived.
            </p>
          ) : null}
          <div className="flex items-center justify-between gap-2">
            <PageStep to="newer" disabled={cursors.length <= 1} onClick={() => setCursors((c) => c.slice(0, -1))} />
            <span className="text-xs text-muted-foreground" data-testid="profile-page">
              Page {cursors.length}
            </span>
            <PageStep
              to="older"
              disabled={!page?.nextBefore}
              onClick={() => page?.nextBefore && setCursors((c) => [...c, page.nextBefore])}
            />
          </div>
        </section>

        <section aria-labelledby="profile-fair" className="space-y-2 rounded-lg border border-border p-3">
          <h3 id="profile-fair" className="font-semibold">
            Fair: “not yet revealed”
          </h3>
          <p className="text-muted-foreground">
            Every round is drawn from your seed pair: a client seed and a server seed that you see only as its SHA-256 while it is in use.
            The server seed of your current pair is revealed when you rotate your seeds; then every round played with it gets its Verify
            link, and you can check that it was drawn honestly. Rotating starts a new pair for the rounds after it.
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <Button size="sm" onClick={onRotate} data-testid="profile-rotate">
              <RefreshCw className="h-4 w-4" aria-hidden /> Rotate seeds to reveal
            </Button>
            <Link href="/fairness" className="text-primary-ink underline">
              How fairness works
            </Link>
          </div>
        </section>

        <section aria-labelledby="profile-tags" className="space-y-2">
          <h3 id="profile-tags" className="font-semibold">
            Tags
          </h3>
          {!tags ? (
            <p className="text-muted-foreground">Loading tags…</p>
          ) : (
            <>
              <p className="text-muted-foreground" data-testid="profile-tags-count">
                {unlocked.length} of {tags.length} unlocked
              </p>
              <ul className="flex flex-wrap gap-2" data-testid="profile-tags">
                {tags.map((t) => (
                  <li
                    key={t.tagId}
                    data-unlocked={t.unlocked}
                    className={
                      t.unlocked
                        ? "rounded-full bg-primary px-2.5 py-1 text-xs font-semibold text-primary-foreground"
                        : "rounded-full border border-border px-2.5 py-1 text-xs text-muted-foreground"
                    }
                  >
                    {t.tag.name}
                    {t.tagId === player.activeTagId && " (active)"}
                    {!t.unlocked && <span className="sr-only"> (locked)</span>}
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
      </div>
    </Dialog>
  );
}
