import * as RadixAvatar from "@radix-ui/react-avatar";
import { cn } from "./cn";

/** A round avatar; while the image loads or when it fails, the name's initials. */
export function Avatar({ src, name, className }: { src?: string | null; name: string; className?: string }) {
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join("") || "?";
  return (
    <RadixAvatar.Root
      className={cn("inline-flex h-9 w-9 shrink-0 items-center justify-center overflow-hidden rounded-full bg-muted", className)}
    >
      {src && <RadixAvatar.Image src={src} alt="" className="h-full w-full object-cover" />}
      <RadixAvatar.Fallback className="text-xs font-bold text-muted-foreground" delayMs={src ? 400 : 0}>
        {initials}
      </RadixAvatar.Fallback>
    </RadixAvatar.Root>
  );
}
