import { useState } from "react";
import Face from "boring-avatars";
import { avatarSource } from "@casino/common/avatar";
import { useSession } from "../store/session";
import { cn } from "./cn";

/** The generated faces' palette: fixed inks that read on the dark and the light theme alike. */
const FACE_COLOURS = ["#0ea5e9", "#f59e0b", "#ef4444", "#10b981", "#8b5cf6"];

/**
 * The one round avatar of the app (header, the "In this activity" strip, the shared tables, the crash
 * room, the boards and Tonight). The player's Discord picture, loaded through the activity's URL mapping
 * when framed by Discord (`avatarSource`), over a face generated on the device from `seed` (boring-avatars,
 * the `face` the server sends with every member it shows, a short hash of the player made by one rule,
 * server/src/players/face.ts: one player has one face on every surface, two players of one name two): the
 * face shows while the picture loads, when it fails, and for players without one (guests). A hidden
 * (anonymous) player, `seed` null, gets a question mark and never their picture.
 *
 * The face carries the name as its accessible label; the picture over it is decorative (`alt=""`).
 */
export function Avatar({ src, name, seed, className }: { src?: string | null; name: string; seed: string | null; className?: string }) {
  const embedded = useSession((s) => s.embedded);
  const picture = seed === null ? null : avatarSource(src, embedded);
  // The picture that failed to load; another address is tried afresh.
  const [failed, setFailed] = useState<string | null>(null);
  // Once loaded, the picture hides the face under it even where it is transparent.
  const [loaded, setLoaded] = useState<string | null>(null);
  const shown = picture !== null && picture !== failed ? picture : null;
  return (
    <span
      className={cn("relative inline-flex h-9 w-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted", className)}
      data-testid="avatar"
      data-face={shown ? "picture" : seed === null ? "hidden" : "generated"}
      data-seed={seed ?? undefined}
    >
      {seed === null ? (
        <span role="img" aria-label={name} className="text-xs font-bold text-muted-foreground">
          ?
        </span>
      ) : (
        <Face name={seed} variant="beam" colors={FACE_COLOURS} size="100%" title={false} aria-label={name} role="img" />
      )}
      {shown && (
        <img
          key={shown}
          src={shown}
          alt=""
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          draggable={false}
          onError={() => setFailed(shown)}
          onLoad={() => setLoaded(shown)}
          className={cn("absolute inset-0 h-full w-full object-cover", loaded === shown && "bg-muted")}
        />
      )}
    </span>
  );
}
