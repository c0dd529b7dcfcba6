/**
 * A write refused because this node no longer leads: another node took the leader lease since the work that asked
 * for the write started (docs/architecture.md, "Several nodes", "Fencing"). Nothing of that write was committed.
 * Whoever meets it stops the leader's work quietly: the new leader does it over.
 */
export class FencedOut extends Error {
  constructor(
    /** The lease epoch the write carried (null: the node did not lead at all). */
    readonly epoch: number | null,
    /** The epoch the database holds now (null: no node ever led). */
    readonly current: number | null,
  ) {
    super(
      `This node no longer leads: its write carried lease epoch ${epoch ?? 'none'}, the database is at ${current ?? 'none'}`,
    );
    this.name = 'FencedOut';
  }
}

export const isFencedOut = (err: unknown): err is FencedOut => err instanceof FencedOut;
