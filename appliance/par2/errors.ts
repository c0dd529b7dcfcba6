/**
 * Why PAR2 data was refused or a repair could not be made. `kind` says what to do about it; the message is for
 * people and names the packet or the numbers involved.
 * - `malformed`: bytes that are not a PAR2 packet (magic, length, truncation, a body too short for its type).
 * - `damaged`: a packet whose MD5 does not match its bytes.
 * - `limit`: a set that claims more than Spool will ever read (see the limits in packets.ts).
 * - `mismatch`: packets of different recovery sets, or that contradict each other.
 * - `unrepairable`: more slices missing than recovery slices present, or a singular system.
 */
export type Par2ErrorKind = 'malformed' | 'damaged' | 'limit' | 'mismatch' | 'unrepairable';

export class Par2Error extends Error {
  readonly kind: Par2ErrorKind;

  constructor(kind: Par2ErrorKind, message: string) {
    super(message);
    this.name = 'Par2Error';
    this.kind = kind;
  }
}
