import { useState } from 'react';

/** One action waiting for the operator's yes (deletes, bulk actions, clears, cancel, repair). */
export interface PendingConfirm {
  title: string;
  message: string;
  confirmLabel: string;
  /** Does the work and reports it (toasts); a rejection is the caller's to report, the dialog just closes. */
  run: () => Promise<void>;
}

/**
 * State for a `ConfirmDialog`: `ask` opens it, the confirm button runs the action with the dialog busy, and the
 * dialog closes when the action settles. `onSettled` runs after every confirmed action (e.g. a list refresh).
 */
export function useConfirm(onSettled?: () => void) {
  const [pending, setPending] = useState<PendingConfirm | undefined>();
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (!pending || busy) return;
    setBusy(true);
    try {
      await pending.run();
    } catch {
      // The action reports its own failure; nothing more to say here.
    } finally {
      setBusy(false);
      setPending(undefined);
      onSettled?.();
    }
  };

  return {
    ask: setPending as (c: PendingConfirm) => void,
    dialog: {
      open: pending !== undefined,
      title: pending?.title ?? '',
      message: pending?.message ?? '',
      confirmLabel: pending?.confirmLabel,
      busy,
      onConfirm: () => void confirm(),
      onCancel: () => setPending(undefined),
    },
  };
}
