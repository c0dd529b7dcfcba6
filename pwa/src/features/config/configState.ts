import { signal } from '@preact/signals-react';

/** The open section has edits not yet saved: drives the 'Unsaved Changes' badge in the page header. */
export const configDirty = signal(false);
