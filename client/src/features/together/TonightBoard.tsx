import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";
import { Flame, Share2, Snowflake } from "lucide-react";
import { gameDefinition, type GameId } from "@casino/common/catalogue";
import { ANONYMOUS_NAME } from "@casino/common/constants";
import { formatCoins, formatNet } from "@casino/common/format";
import { shoeVerifyHref } from "@casino/common/verifiers/verify-link";
import { isBigWin, isOwnRow, roundCustomId, type TonightBiggestWin, type TonightRow } from "@casino/common/together";
import { Avatar } from "../../ui/Avatar";
import { cn } from "../../ui/cn";
import { useSession } from "../../store/session";
import { useTogether } from "../../store/together";
import { shareLink } from "../../platform/discord-together";
import { bigWinShareMessage } from "./race-words";
import { openRoundVerify } from "./open-round";
import { RacePanel } from "./RacePanel";
import { showTonight } from "./show-tonight";
import { STRIP_TONIGHT } from "./strip-frame";

const titleOf = (game: string) => gameDefinition(game as GameId)?.title ?? game;

/** The name the strip shows for a member (Discord's guild nickname first, as in the call), else the server's; "Anonymous" when hidden. */
export function useNameOf(): (row: Pick<TonightRow, "hidden" | "discordId" | "username">) => string {
  const participants = useTogether((s) => s.participants);
  return (row) => {
    if (row.hidden) return ANONYMOUS_NAME;
    const p = row.discordId ? participants?.find((x) => x.id === row.discordId) : undefined;
    return (p && (p.nickname || p.global_name || p.username)) || row.username;
  };
}
const plural = (n: number, one: string) => `${formatCoins(n)} ${n === 1 ? one : `${one}s`}`;

/** "3 wins in a row", "2 losses in a row", or nothing before the first round won or lost. */
export function streakText(streak: number): string | null {
  if (streak === 0) return null;
  const n = Math.abs(streak);
  return streak > 0 ? `${n} ${n === 1 ? "win" : "wins"} in a row` : `${n} ${n === 1 ? "loss" : "losses"} in a row`;
}

/**
 * Tonight's board of the activity: each member who joined it today (UTC), best net first, with the
 * rounds and card hands played since their first join, the current run of wins or losses and the
 * biggest win, which opens where it is verified. The server pushes it after each settled round of a
 * member; an anonymous member is "Anonymous" (blurred, no face, no link) to the others.
 */
export function TonightBoard({ header }: { header: ReactNode }) {
  const board = useTogether((s) => s.board);
  const nameOf = useNameOf();
  const me = useSession((s) => s.player?.discordId);
  const rows = board?.rows ?? [];
  return (
    <div className="rounded-2xl border border-border bg-card p-3" data-testid="tonight-board" data-day={board?.day}>
      {header}
      <RacePanel nameOf={nameOf} />
      {rows.length === 0 ? (
        <p className="text-xs text-muted-foreground">{board ? "Nobody has played here today yet." : "Loading tonight's board..."}</p>
      ) : (
        <ol className="max-h-72 space-y-1 overflow-y-auto" aria-label="Tonight's board, best net first">
          {rows.map((row) => (
            <TonightLine key={`${row.rank}:${row.discordId ?? "hidden"}`} row={row} name={nameOf(row)} self={isOwnRow(row, me)} />
          ))}
        </ol>
      )}
      <p className="mt-2 text-[11px] leading-snug text-muted-foreground">
        Since each player first joined today (UTC): net is payout minus stake of every settled round, virtual coins only.
      </p>
    </div>
  );
}

function TonightLine({ row, name, self }: { row: TonightRow; name: string; self: boolean }) {
  const streak = streakText(row.streak);
  return (
    <li
      className={cn("flex items-start gap-2 rounded-lg px-2 py-1.5 text-xs", self && "bg-primary/10 ring-1 ring-inset ring-primary")}
      data-testid="tonight-row"
      data-self={self || undefined}
      data-hidden={row.hidden || undefined}
      data-net={row.net}
      data-rounds={row.rounds}
      data-hands={row.hands}
      data-streak={row.streak}
      data-best={row.biggestWin?.net ?? 0}
    >
      <span className="w-5 shrink-0 pt-1.5 text-right font-bold tabular-nums text-muted-foreground">{row.rank}</span>
      <Avatar src={row.hidden ? null : row.avatarUrl} name={name} seed={row.hidden ? null : row.face} className="h-7 w-7" />
      <div className="min-w-0 flex-1 leading-tight">
        <p className="flex min-w-0 items-baseline gap-1">
          <span className={cn("truncate font-semibold", row.hidden && "select-none blur-[3px]")} data-testid="tonight-name">
            {name}
          </span>
          {self && <span className="shrink-0 text-muted-foreground">(you)</span>}
          <span
            className={cn("ml-auto shrink-0 font-mono text-sm font-bold tabular-nums", row.net > 0 && "text-primary-ink")}
            data-testid="tonight-net"
          >
            {formatNet(row.net)}
          </span>
        </p>
        <p className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-0.5 text-muted-foreground">
          <span data-testid="tonight-played">
            {plural(row.rounds, "round")}
            {row.hands > 0 && ` · ${plural(row.hands, "hand")}`}
          </span>
          {streak && (
            <span className="inline-flex items-center gap-0.5" data-testid="tonight-streak">
              {row.streak > 0 ? <Flame className="h-3 w-3" aria-hidden /> : <Snowflake className="h-3 w-3" aria-hidden />}
              {streak}
            </span>
          )}
          {row.biggestWin && <BiggestWin win={row.biggestWin} />}
          {self && row.biggestWin && <ShareBigWin win={row.biggestWin} />}
        </p>
      </div>
    </li>
  );
}

/** The biggest win, opening its round in the verifier (a seat's round: its shoe's; a crash bet: named by its game number). */
function BiggestWin({ win }: { win: TonightBiggestWin }) {
  const token = useSession((s) => s.token);
  const [, navigate] = useLocation();
  const text = `Best +${formatCoins(win.net)} at ${titleOf(win.game)}`;
  const v = win.verify;
  const link = "inline-flex min-h-6 items-center text-primary-ink underline";
  if (v?.kind === "round") {
    return (
      <button
        type="button"
        className={link}
        data-testid="tonight-best"
        title="Verify this round"
        onClick={() => token && void openRoundVerify(v.serverSeedHash, v.nonce, token, navigate)}
      >
        {text}
      </button>
    );
  }
  if (v?.kind === "shoe") {
    return (
      <Link href={`${shoeVerifyHref(v.shoeId)}#round-${v.round}`} className={link} data-testid="tonight-best" title="Verify this round">
        {text}
      </Link>
    );
  }
  return (
    <span data-testid="tonight-best" title={v ? `Game #${v.gameNumber}: verified in the table's history` : undefined}>
      {text}
      {v && ` (game #${v.gameNumber})`}
    </span>
  );
}

/**
 * A moment to share, inside Discord: the player's own biggest win tonight when it is a big win (the
 * feeds' rule) of a solo round, as a share link whose `custom_id` opens that round's verification.
 */
function ShareBigWin({ win }: { win: TonightBiggestWin }) {
  const discord = useSession((s) => s.discord);
  const v = win.verify;
  if (!discord || v?.kind !== "round" || !isBigWin(win.stake, win.payout)) return null;
  return (
    <button
      type="button"
      className="inline-flex min-h-6 items-center gap-1 text-primary-ink underline"
      data-testid="tonight-share"
      aria-label="Share this win"
      onClick={() => void shareLink(bigWinShareMessage(win.game, win.payout, null), roundCustomId(v.serverSeedHash, v.nonce))}
    >
      <Share2 className="h-3 w-3" aria-hidden />
      Share
    </button>
  );
}

/** The strip's one line: the top three of tonight's board, and the way to the whole board. */
export function TonightTop() {
  const board = useTogether((s) => s.board);
  const nameOf = useNameOf();
  const top = (board?.rows ?? []).filter((r) => r.rounds > 0).slice(0, 3);
  // Always drawn (the strip's height does not change): before tonight's first round, says so.
  return (
    <button
      type="button"
      onClick={showTonight}
      className={cn(STRIP_TONIGHT, "hover:bg-muted")}
      data-testid="tonight-top"
      title="Open tonight's board"
    >
      <span className="shrink-0 font-semibold">Tonight</span>
      {top.length === 0 ? (
        <span className="min-w-0 truncate text-muted-foreground">No rounds yet</span>
      ) : (
        <span className="flex min-w-0 gap-3 truncate">
          {top.map((r) => (
            <span key={r.rank} className="shrink-0" data-testid="tonight-top-entry">
              <span className="text-muted-foreground">{r.rank}.</span>{" "}
              <span className={cn(r.hidden && "select-none blur-[2px]")}>{nameOf(r)}</span>{" "}
              <span className="font-mono font-semibold tabular-nums">{formatNet(r.net)}</span>
            </span>
          ))}
        </span>
      )}
      <span className="ml-auto shrink-0 text-primary-ink underline">Board</span>
    </button>
  );
}
