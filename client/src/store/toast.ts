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
  show(toast: ToastContent): void;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToast = create<ToastState>()((set) => ({
  current: null,
  show: (toast) => set({ current: { ...toast, id: nextId++ } }),
  dismiss: (id) => set((s) => (s.current?.id === id ? { current: null } : {})),
}));

export const toast = (content: ToastContent) => useToast.getState().show(content);
