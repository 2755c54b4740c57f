import * as RadixAvatar from "@radix-ui/react-avatar";
import Face from "boring-avatars";
import { cn } from "./cn";

/** The generated faces' palette: fixed inks that read on the dark and the light theme alike. */
const FACE_COLOURS = ["#0ea5e9", "#f59e0b", "#ef4444", "#10b981", "#8b5cf6"];

/**
 * A round avatar: the player's picture (Discord's), or a face generated from `seed` (the player's id,
 * so the same player has the same face in the header, the strip, the tables and the boards) while the
 * picture loads, when it fails, and for players without one (guests). A hidden player (`seed` null)
 * gets a question mark.
 */
export function Avatar({ src, name, seed, className }: { src?: string | null; name: string; seed: string | null; className?: string }) {
  return (
    <RadixAvatar.Root
      className={cn("inline-flex h-9 w-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted", className)}
      data-testid="avatar"
      data-face={src ? "picture" : seed === null ? "hidden" : "generated"}
    >
      {src && <RadixAvatar.Image src={src} alt="" className="h-full w-full object-cover" />}
      <RadixAvatar.Fallback
        className="grid h-full w-full place-items-center text-xs font-bold text-muted-foreground"
        delayMs={src ? 400 : 0}
      >
        {seed === null ? (
          "?"
        ) : (
          <Face name={seed} variant="beam" colors={FACE_COLOURS} size="100%" title={false} aria-label={name} role="img" />
        )}
      </RadixAvatar.Fallback>
    </RadixAvatar.Root>
  );
}
