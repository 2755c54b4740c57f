import { useState } from "react";
import Face from "boring-avatars";
import { avatarSource } from "@casino/common/avatar";
import { useSession } from "../store/session";
import { cn } from "./cn";

/** The generated faces' inks: ten hues about a tenth of the colour wheel apart, that read on the dark and the light theme alike. */
const FACE_INKS = ["#ef4444", "#f97316", "#facc15", "#84cc16", "#10b981", "#06b6d4", "#3b82f6", "#8b5cf6", "#d946ef", "#ec4899"];

/**
 * A face's two inks (its head and its ground), picked by its seed from FACE_INKS: 90 pairs. Given the
 * whole list, boring-avatars' beam takes the ground from the head's place in it, so a face has one of
 * only as many colourings as there are inks (five before, when two members of one call often looked
 * alike); given these two, it takes one for each.
 */
function inksOf(seed: string): [string, string] {
  // FNV-1a over the seed, then murmur3's finaliser, so neighbouring seeds land far apart.
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  hash = (hash ^ (hash >>> 16)) >>> 0;
  const head = hash % FACE_INKS.length;
  const ground = (head + 1 + (Math.floor(hash / FACE_INKS.length) % (FACE_INKS.length - 1))) % FACE_INKS.length;
  return [FACE_INKS[head]!, FACE_INKS[ground]!];
}

/**
 * The one round avatar of the app (header, the "In this activity" strip, the shared tables, the crash
 * room, the boards and Tonight). The player's Discord picture, loaded through the activity's URL mapping
 * when framed by Discord (`avatarSource`), over a face generated on the device from `seed` (boring-avatars,
 * the `face` the server sends with every member it shows, a short hash of the player made by one rule,
 * server/src/core/players/face.ts: one player has one face on every surface, two players of one name two): the
 * face shows while the picture loads, when it fails, and for players without one (guests). A hidden
 * (anonymous) player, `seed` null, gets a question mark and never their picture. A member sent without
 * a seed at all (an answer of the spec's shapes, which has none) gets a face drawn from the name.
 *
 * The face carries the name as its accessible label; the picture over it is decorative (`alt=""`).
 */
export function Avatar({
  src,
  name,
  seed,
  className,
}: {
  src?: string | null;
  name: string;
  seed: string | null | undefined;
  className?: string;
}) {
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
        <Face name={seed ?? name} variant="beam" colors={inksOf(seed ?? name)} size="100%" title={false} aria-label={name} role="img" />
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
