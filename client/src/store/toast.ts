import { create } from "zustand";

export interface ToastContent {
  title: string;
  description?: string;
  variant?: "default" | "success" | "destructive";
  /** ms; 5 s when not given. */
  duration?: number;
}

interface ToastState {
  /** The one toast on screen (the spec allows one at a time): a new one replaces it. */
  current: (ToastContent & { id: number }) | null;
  /**
   * Where toasts show while a game is open: a slot in the game's header, over its title only, so a
   * toast never covers the table, its result or a control. Null elsewhere (toasts at the bottom).
   */
  slot: HTMLElement | null;
  show(toast: ToastContent): void;
  dismiss(id: number): void;
  setSlot(slot: HTMLElement | null): void;
}

let nextId = 1;

export const useToast = create<ToastState>()((set) => ({
  current: null,
  slot: null,
  show: (toast) => set({ current: { ...toast, id: nextId++ } }),
  dismiss: (id) => set((s) => (s.current?.id === id ? { current: null } : {})),
  setSlot: (slot) => set({ slot }),
}));

export const toast = (content: ToastContent) => useToast.getState().show(content);
