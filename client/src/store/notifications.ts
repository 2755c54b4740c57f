import { create } from "zustand";

export interface Notice {
  id: number;
  title: string;
  description: string;
  at: number;
}

interface NotificationState {
  items: Notice[];
  unread: number;
  add(title: string, description: string): void;
  markRead(): void;
}

let nextId = 1;
const KEEP = 20;

/** Notices the server pushed this visit (e.g. "Daily Spin Ready!"), newest first, for the header's bell. */
export const useNotifications = create<NotificationState>()((set) => ({
  items: [],
  unread: 0,
  add: (title, description) =>
    set((s) => ({ items: [{ id: nextId++, title, description, at: Date.now() }, ...s.items].slice(0, KEEP), unread: s.unread + 1 })),
  markRead: () => set({ unread: 0 }),
}));
