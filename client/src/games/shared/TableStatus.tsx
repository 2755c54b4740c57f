import type { ReactNode } from "react";
import type { SharedRoomStatus } from "./use-shared-room";

/**
 * The line over a shared table's felt (the blackjack table, the Hold'em table): what the table is doing
 * (`phase`, read out as a status) and who is there (`children`: seats taken, watchers and the like).
 */
export function TableStatusLine(props: { phase: ReactNode; phaseTestId: string; watchersTestId: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs">
      <p role="status" data-testid={props.phaseTestId} className="text-sm font-semibold">
        {props.phase}
      </p>
      <p className="text-muted-foreground" data-testid={props.watchersTestId}>
        {props.children}
      </p>
    </div>
  );
}

/** The badge a shared table shows while its room connection is being won back. */
export function ReconnectingBadge({ status }: { status: SharedRoomStatus }) {
  if (status !== "reconnecting") return null;
  return (
    <p role="status" className="self-start rounded-full bg-amber-500/20 px-2 py-0.5 text-xs text-warning">
      Reconnecting…
    </p>
  );
}

/** What a shared table shows in place of its felt before its first snapshot: joining, or that it cannot be reached. */
export function TableJoining({ status, className }: { status: SharedRoomStatus; className: string }) {
  return (
    <p className={className} role="status">
      {status === "lost" ? "The table cannot be reached. Go back to the lobby and try again." : "Joining the table…"}
    </p>
  );
}
