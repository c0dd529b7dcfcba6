import { randomBytes } from 'node:crypto';
import type { NzoIdStore } from './sabnzbd.port.js';

const PATTERN = /^SABnzbd_nzo_([a-z0-9]+)_(\d+)$/;

/**
 * nzo_ids: `SABnzbd_nzo_<store salt>_<queue item id>`. The arrs key a grab by this id forever, so it must be
 * byte-identical from addfile through queue and history, and never name another item: queue ids are never reused
 * within a store, and the salt (made once per store) keeps a fresh store's item 1 apart from an old store's.
 */
export class NzoIds {
  private constructor(private readonly salt: string) {}

  /** Reads the store's salt once (making it on first start); ids are formed and parsed in memory from then on. */
  static async open(store: NzoIdStore): Promise<NzoIds> {
    return new NzoIds(await store.saltOrCreate(() => randomBytes(4).readUInt32BE(0).toString(36)));
  }

  of(itemId: number): string {
    return `SABnzbd_nzo_${this.salt}_${itemId}`;
  }

  /** The queue item id of an nzo_id (or of a bare id, as the console shows it); undefined for anything else. */
  parse(nzoId: string): number | undefined {
    const text = nzoId.trim();
    if (/^\d{1,15}$/.test(text)) return Number(text);
    const m = PATTERN.exec(text);
    return m && m[1] === this.salt ? Number(m[2]) : undefined;
  }
}
