import { useEffect, useState } from "react";
import { Link } from "wouter";
import type { HistoryItem, HistoryPage } from "@casino/common/api";
import { api, messageOf, seg } from "../../net/api";
import { verifyHref } from "../../games/shared/api";
import { formatCoins } from "../../games/shared/format";

const SHOWN = 5;

/**
 * The player's last daily spins from the server's history, each with a link to the verifier once the
 * seed pair it drew from is rotated. Reloaded when `version` changes (after a spin lands).
 */
export function SpinHistory({ playerId, version }: { playerId: string; version: number }) {
  const [items, setItems] = useState<HistoryItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api<HistoryPage>(`/player/${seg(playerId)}/history?kind=daily_spin&limit=${SHOWN}`)
      .then((page) => live && (setItems(page.items), setError(null)))
      .catch((e: unknown) => live && setError(messageOf(e)));
    return () => {
      live = false;
    };
  }, [playerId, version]);

  if (error) return <p className="text-xs text-destructive">Could not load your spins: {error}</p>;
  if (!items || items.length === 0) return null;
  return (
    <section className="mt-5 border-t border-border pt-4 text-sm" data-testid="spin-history" aria-label="Your spins">
      <h3 className="mb-2 font-semibold">Your spins</h3>
      <ul className="space-y-1">
        {items.map((item) => {
          const href = verifyHref(item);
          return (
            <li key={item.id} className="flex items-center gap-3 tabular-nums" data-testid="spin-row">
              <span className="w-40 text-muted-foreground">{new Date(item.createdAt).toLocaleString()}</span>
              <span className="flex-1 font-semibold">+{formatCoins(item.payout)}</span>
              {href ? (
                <Link href={href} className="text-primary-ink underline">
                  Verify
                </Link>
              ) : item.fairness.serverSeedHash ? (
                <span
                  className="text-xs text-muted-foreground"
                  title="The seed of this spin is still active: rotate your seeds to reveal it"
                >
                  not yet revealed
                </span>
              ) : (
                <span className="text-xs text-muted-foreground">recorded before spins kept their seed</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
