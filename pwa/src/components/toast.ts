import { signal } from '@preact/signals-react';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface Toast {
  id: number;
  type: ToastType;
  title: string;
  message?: string;
  duration: number;
}

/** docs/console-contract.md §9: toasts last 3000 ms unless told otherwise. */
export const DEFAULT_TOAST_MS = 3000;

/** The visible toasts; any component may push, only the viewport renders. */
export const toasts = signal<Toast[]>([]);
let nextId = 1;

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}

export function showToast(type: ToastType, title: string, message?: string, duration = DEFAULT_TOAST_MS): number {
  const id = nextId++;
  toasts.value = [...toasts.value, { id, type, title, message, duration }];
  if (duration > 0) setTimeout(() => dismissToast(id), duration);
  return id;
}

export const toast = {
  success: (title: string, message?: string, duration?: number) => showToast('success', title, message, duration),
  error: (title: string, message?: string, duration?: number) => showToast('error', title, message, duration),
  warning: (title: string, message?: string, duration?: number) => showToast('warning', title, message, duration),
  info: (title: string, message?: string, duration?: number) => showToast('info', title, message, duration),
};
