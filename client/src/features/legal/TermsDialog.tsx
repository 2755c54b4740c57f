import * as Checkbox from "@radix-ui/react-checkbox";
import { Check } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { create } from "zustand";
import { Link } from "wouter";
import { TERMS_VERSION } from "@casino/common/constants";
import type { PlayerRecord } from "@casino/common/api";
import { api } from "../../net/api";
import { useSession } from "../../store/session";
import { toast } from "../../store/toast";
import { Dialog } from "../../ui/Dialog";
import { Button } from "../../ui/Button";

/** The ticks survive a visit to the pages the boxes link to. */
const useTicks = create<{ terms: boolean; privacy: boolean }>()(() => ({ terms: false, privacy: false }));

/** "Updated Terms & Privacy Policy": blocking until both boxes are ticked and the acceptance is saved. */
export default function TermsDialog({ player }: { player: PlayerRecord }) {
  const { terms, privacy } = useTicks();
  const [saving, setSaving] = useState(false);

  const accept = async () => {
    setSaving(true);
    try {
      const updated = await api<PlayerRecord>("/player/accept-tos", {
        method: "PATCH",
        body: { playerId: player.id, version: TERMS_VERSION },
      });
      useSession.setState({ player: updated });
      toast({ title: "Thank you!", description: "Terms accepted successfully", variant: "success" });
    } catch (error) {
      console.error("Failed to accept terms", error);
      toast({ title: "Error", description: "Failed to accept terms. Please try again.", variant: "destructive" });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open blocking title="Updated Terms & Privacy Policy" description={`Welcome, ${player.username || "Player"}!`}>
      <p className="text-sm">
        Before you play, please read and accept our Terms of Service and Privacy Policy (updated 30 October 2025). The casino uses virtual
        coins only: they have no cash value and can never be bought, sold or withdrawn.
      </p>
      <div className="mt-4 space-y-3">
        <Tick checked={terms} onChange={(v) => useTicks.setState({ terms: v })}>
          I have read and agree to the{" "}
          <Link href="/terms" className="font-semibold text-primary-ink underline underline-offset-2">
            Terms of Service
          </Link>
        </Tick>
        <Tick checked={privacy} onChange={(v) => useTicks.setState({ privacy: v })}>
          I have read and agree to the{" "}
          <Link href="/privacy" className="font-semibold text-primary-ink underline underline-offset-2">
            Privacy Policy
          </Link>
        </Tick>
      </div>
      <Button className="mt-5 w-full" size="lg" disabled={!terms || !privacy || saving} onClick={accept}>
        Accept and Continue
      </Button>
    </Dialog>
  );
}

function Tick({ checked, onChange, children }: { checked: boolean; onChange(checked: boolean): void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <Checkbox.Root
        id={id}
        checked={checked}
        onCheckedChange={(v) => onChange(v === true)}
        required
        className="mt-0.5 grid h-5 w-5 shrink-0 place-items-center rounded border border-border bg-background data-[state=checked]:border-primary data-[state=checked]:bg-primary"
      >
        <Checkbox.Indicator>
          <Check className="h-4 w-4 text-primary-foreground" aria-hidden />
        </Checkbox.Indicator>
      </Checkbox.Root>
      <label htmlFor={id} className="text-sm leading-snug">
        {children}
      </label>
    </div>
  );
}
