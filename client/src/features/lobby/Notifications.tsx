import * as Popover from "@radix-ui/react-popover";
import { Bell } from "lucide-react";
import { useNotifications } from "../../store/notifications";

const timeOf = (at: number) => new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** The header's notification control: what the server pushed this visit, newest first. */
export function Notifications() {
  const items = useNotifications((s) => s.items);
  const unread = useNotifications((s) => s.unread);
  const markRead = useNotifications((s) => s.markRead);
  return (
    <Popover.Root onOpenChange={(open) => open && markRead()}>
      <Popover.Trigger
        className="relative grid h-10 w-10 place-items-center rounded-full hover:bg-muted"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : "Notifications"}
      >
        <Bell className="h-5 w-5" aria-hidden />
        {unread > 0 && (
          <span
            className="absolute right-1 top-1 grid h-4 min-w-4 place-items-center rounded-full bg-destructive px-1 text-[10px] font-bold text-white"
            aria-hidden
          >
            {unread}
          </span>
        )}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          className="z-50 w-72 max-w-[calc(100vw-1rem)] rounded-xl border border-border bg-card p-2 text-foreground shadow-xl"
        >
          <h2 className="px-2 py-1 text-sm font-semibold">Notifications</h2>
          {items.length === 0 ? (
            <p className="px-2 py-3 text-sm text-muted-foreground">No notifications yet.</p>
          ) : (
            <ul className="max-h-72 overflow-y-auto">
              {items.map((n) => (
                <li key={n.id} className="rounded-lg px-2 py-2 hover:bg-muted">
                  <p className="text-sm font-semibold">{n.title}</p>
                  <p className="text-xs text-muted-foreground">
                    {n.description} · {timeOf(n.at)}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
