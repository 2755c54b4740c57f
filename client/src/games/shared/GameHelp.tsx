import type { ReactNode } from "react";
import type { GameDefinition } from "@casino/common/catalogue";
import { ROUNDING_RULE_TEXT } from "@casino/common/fairness/rounding";
import { RTP_TABLE } from "@casino/common/rtp-table";
import { betName } from "@casino/common/rtp/doc";
import { Dialog } from "./Dialog";
import { formatPercent } from "./format";

export interface HelpContent {
  /** how the game is played, in a few short paragraphs or a list */
  rules: ReactNode;
  /** the pay table, drawn from the engine's constants */
  payTable?: ReactNode;
  /** which RTP rows to list (all of the game's by default) */
  rtpRows?: (bet: string) => boolean;
}

/** The game's rules, pay table and exact return to player (from the static RTP table of `common`). */
export function GameHelp(props: { game: GameDefinition; open: boolean; onClose(): void; content: HelpContent }) {
  const { game, open, onClose, content } = props;
  const rows = (RTP_TABLE[game.id] ?? []).filter((r) => !content.rtpRows || content.rtpRows(r.bet));
  return (
    <Dialog open={open} onClose={onClose} title={`${game.title}: how to play`} testId="help-dialog" wide>
      <div className="flex flex-col gap-4 text-sm leading-relaxed text-muted-foreground">
        <section>{content.rules}</section>
        {content.payTable && (
          <section>
            <h3 className="mb-1 font-semibold text-foreground">Pay table</h3>
            {content.payTable}
          </section>
        )}
        <section data-testid="help-rtp">
          <h3 className="mb-1 font-semibold text-foreground">Return to player</h3>
          <table className="w-full text-xs">
            <tbody>
              {rows.map((r) => (
                <tr key={r.bet} className="border-b border-border">
                  <td className="py-1 pr-3">{r.bet ? betName(r.bet) : game.title}</td>
                  <td className="py-1 text-right font-mono tabular-nums">{formatPercent(r.rtp, 4)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-1 text-xs text-muted-foreground">
            Exact values, at every stake: payouts are made whole without bias, so rounding changes none of them.
          </p>
        </section>
        <section data-testid="help-rounding">
          <h3 className="mb-1 font-semibold text-foreground">Whole coins</h3>
          <p className="text-xs">{ROUNDING_RULE_TEXT}</p>
        </section>
      </div>
    </Dialog>
  );
}

/** A two-column pay table. */
export function PayTable(props: {
  rows: { label: ReactNode; pays: ReactNode; highlight?: boolean; testId?: string }[];
  head?: [string, string];
}) {
  return (
    <table className="w-full text-xs">
      {props.head && (
        <thead>
          <tr className="text-left text-muted-foreground">
            <th className="py-1 font-medium">{props.head[0]}</th>
            <th className="py-1 text-right font-medium">{props.head[1]}</th>
          </tr>
        </thead>
      )}
      <tbody>
        {props.rows.map((r, i) => (
          <tr
            key={i}
            data-testid={r.testId}
            className={`border-b border-border ${r.highlight ? "bg-amber-400/20 font-semibold text-warning" : ""}`}
          >
            <td className="py-1 pr-3">{r.label}</td>
            <td className="py-1 text-right font-mono tabular-nums">{r.pays}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
