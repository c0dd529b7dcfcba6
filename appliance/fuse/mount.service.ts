import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { FuseMount, type ReadCounters } from './fuse-mount.js';
import { mountBlocker, propagationProblem, readMountSetupFacts, type MountSetupFacts } from './mount-setup.js';
import type { MountStartResult, MountStatus, MountStopResult } from './mount.wire.js';
import type { ReadHandles } from '../vfs/read-handle.js';
import type { ConfigService } from '../config/index.js';
import { silentEvents, type EventSink, type SpoolEvents } from '../events/index.js';
import type { Logger } from '../logging/logger.js';
import { mountBackend, type MountBackend } from '../rclone/rc-mount-options.js';
import { RcloneMount } from '../rclone/rclone-mount.js';
import type { VfsReader } from '../vfs/reader.js';
import type { VfsService } from '../vfs/vfs.service.js';

const run = promisify(execFile);

export type { MountStatus } from './mount.wire.js';

/**
 * The mount of the virtual tree at `mount_path` (docs/console-contract.md §7 /api/rclone/mount/*), by one of two
 * backends (docs/fuse.md): our FUSE 3 addon (appliance/fuse/native, the default), or an rclone rcd mounting Spool's
 * WebDAV over its remote control (`rc_enabled`, or `mount_options.backend`; appliance/rclone/rclone-mount.ts). A
 * native mount left behind by a crash is detached (fusermount3 -uz, else umount -l) before mounting again, so a
 * kill -9 never blocks the next start.
 */
export class MountService {
  private fuse: FuseMount | null = null;
  /** The backend of the running mount, or null when none runs. */
  private active: MountBackend | null = null;
  private mountPoint = '';
  private lastError = '';
  /** A setup problem of the running mount (not propagated out of the container), '' when none. */
  private setupWarning = '';

  constructor(
    private readonly vfs: VfsService,
    private readonly reader: VfsReader,
    /** The read handles both fronts open (WebDAV too), so a live view of streams sees the mount's. */
    private readonly handles: ReadHandles,
    private readonly config: ConfigService,
    private readonly logger: Logger,
    /** Kernel read-ahead for the mount in KiB (SPOOL_FUSE_READ_AHEAD_KB); 0 keeps the kernel's default. */
    private readonly kernelReadAheadKb = 0,
    readonly rclone = new RcloneMount(logger),
    /** Where the mount's coming up, going down or failing is announced (`mount.state.changed`). */
    private readonly events: EventSink<SpoolEvents> = silentEvents(),
    /** What the setup checks read (mount-setup.ts); tests pass their own. */
    private readonly setupFacts: () => MountSetupFacts = () => readMountSetupFacts(),
  ) {}

  async status(): Promise<MountStatus> {
    const point = this.mountPoint || this.config.get().mount_path;
    if (this.active !== 'rclone') {
      const mounted = this.fuse !== null && isMounted(point);
      return { mounted, mount_point: point, error: this.lastError || (mounted ? this.setupWarning : '') };
    }
    try {
      const mounted = await this.rclone.isMounted();
      return { mounted, mount_point: point, error: this.lastError || (mounted ? this.setupWarning : '') };
    } catch (err) {
      return { mounted: false, mount_point: point, error: (err as Error).message };
    }
  }

  async start(): Promise<MountStartResult> {
    if (this.active) return { status: await this.status(), message: 'Mount already running' };
    try {
      const c = this.config.get();
      if (!c.mount_path) throw new Error('mount_path is not set');
      if (mountBackend(c.rclone) === 'rclone') await this.mountRclone();
      else await this.mountNative();
      this.lastError = '';
      this.logger.info('mounted', { mount_point: this.mountPoint, backend: this.active });
      if (this.setupWarning) this.logger.warn(this.setupWarning, { mount_point: this.mountPoint });
      const status = await this.status();
      this.events.emit('mount.state.changed', status);
      return { status, message: 'Mount started' };
    } catch (err) {
      this.lastError = (err as Error).message; // GET /api/rclone/mount/status shows why
      const point = this.mountPoint || this.config.get().mount_path;
      this.events.emit('mount.state.changed', { mounted: false, mount_point: point, error: this.lastError });
      throw err;
    }
  }

  private async mountRclone(): Promise<void> {
    const c = this.config.get();
    const point = c.mount_path;
    // A native mount a crash left here would block rclone's; an rclone one is the rcd's to replace.
    if (mountTypeAt(point) === 'fuse.spool') await cleanStale(point, this.logger);
    // The mount point is a path on the rcd's host; when that is this host, rclone wants it to exist.
    try {
      mkdirSync(point, { recursive: true });
    } catch {
      // not creatable here: the rcd may run elsewhere, and says so itself if the path is wrong there too
    }
    await this.rclone.start(c, point);
    this.setupWarning = ''; // the rcd may mount on another host: this container's propagation says nothing
    this.active = 'rclone';
    this.mountPoint = point;
  }

  private async mountNative(): Promise<void> {
    const c = this.config.get();
    const point = c.mount_path;
    const facts = this.setupFacts();
    const blocker = mountBlocker(facts);
    if (blocker) throw new Error(blocker);
    await cleanStale(point, this.logger);
    mkdirSync(point, { recursive: true });
    this.setupWarning = propagationProblem(point, facts) ?? '';
    const r = c.rclone;
    // FUSE 3 mounts over a non-empty directory without asking (no `nonempty`); rclone's rule is kept here.
    if (!r.allow_non_empty && readdirSync(point).length > 0)
      throw new Error(`Mount point ${point} is not empty (enable allow_non_empty to mount over its contents)`);
    this.fuse = FuseMount.start(
      point,
      mountOptions(c),
      this.vfs,
      this.reader,
      {
        uid: r.uid,
        gid: r.gid,
        umask: parseInt(String(r.umask), 8) || 0o002,
        readOnly: r.read_only,
        // streaming.max_download_workers caps it; below that it follows the measured link (vfs/stream-window.ts)
        readAhead: () => this.reader.streamWindow(),
        handles: this.handles,
      },
      this.kernelReadAheadKb,
    );
    this.active = 'native';
    this.mountPoint = point;
  }

  async stop(): Promise<MountStopResult> {
    if (this.active === 'rclone') {
      await this.rclone.stop();
      this.logger.info('unmounted', { mount_point: this.mountPoint, backend: 'rclone' });
      this.active = null;
      this.stopped();
      return { message: 'Mount stopped' };
    }
    const fuse = this.fuse;
    if (!fuse) return { message: 'Mount was not running' };
    await fuse.stop();
    const counters = fuse.counters();
    // How reads were answered: the share the native window served is what makes FUSE keep up with WebDAV.
    this.logger.info('unmounted', { mount_point: this.mountPoint, backend: 'native', ...counters });
    if (isMounted(this.mountPoint)) await cleanStale(this.mountPoint, this.logger);
    this.fuse = null;
    this.active = null;
    this.stopped();
    return { message: 'Mount stopped' };
  }

  private stopped(): void {
    this.events.emit('mount.state.changed', { mounted: false, mount_point: this.mountPoint, error: '' });
  }

  /**
   * Paths that changed in the tree (removed, moved away, replaced; app/streaming.ts subscribes): the native mount
   * drops the kernel's cached attributes of each, so they do not stay visible for dir_cache_time (docs/fuse.md).
   * The rclone backend learns of changes through vfs/refresh instead; nothing to do without a native mount.
   */
  async invalidate(paths: string[]): Promise<void> {
    const fuse = this.fuse;
    if (!fuse || paths.length === 0) return;
    const results = await fuse.invalidate(paths);
    this.logger.debug('kernel cache invalidated', {
      paths: paths.length,
      cached: results.filter((r) => r === 0).length,
    });
  }

  /** Files open on the native mount now (each with its read window). */
  openHandles(): number {
    return this.fuse?.openHandles ?? 0;
  }

  /** How the native mount's reads were answered (native window vs JS); null when not mounted natively. */
  readCounters(): ReadCounters | null {
    return this.fuse?.counters() ?? null;
  }
}

/** libfuse -o options (plus the addon's own direct_io and sync_read) from the rclone section. */
export function mountOptions(c: ReturnType<ConfigService['get']>): string[] {
  const r = c.rclone;
  const opts = [
    'fsname=spool',
    'subtype=spool',
    `max_read=${1024 * 1024}`,
    `attr_timeout=${seconds(r.attr_timeout, 1)}`,
    `entry_timeout=${seconds(r.dir_cache_time, 1)}`,
  ];
  if (r.allow_other) opts.push('allow_other');
  if (r.read_only) opts.push('ro');
  // Ours, taken out by the addon before libfuse sees it: turns FUSE_CAP_ASYNC_READ off at init.
  if (!r.async_read) opts.push('sync_read');
  if (directIo(r.mount_options)) opts.push('direct_io');
  return opts;
}

/**
 * Direct I/O unless `mount_options` turns it off (`direct_io`, `direct-io` or rclone's `DirectIO`: false). With
 * it, reads skip the kernel page cache and reach the read window at the reader's own size (up to 1 MiB) instead
 * of 128 KiB read-ahead pages: no second copy of the stream in the page cache, and FUSE keeps up with WebDAV
 * (docs/fuse.md). Its cost: a shared mmap of a file on the mount fails (ENODEV); private mmaps work.
 */
export function directIo(options: Record<string, string | number | boolean>): boolean {
  for (const [key, value] of Object.entries(options)) {
    if (key.replace(/[-_]/g, '').toLowerCase() !== 'directio') continue;
    return !(value === false || value === 0 || /^(false|no|off|0)$/i.test(String(value).trim()));
  }
  return true;
}

/**
 * Whether a FUSE file system is mounted at `point` (the topmost mount there). A bind mount of the mount path itself
 * (a container's `-v /mnt/spool:/mnt/spool:rshared`) is not one: it must never be detached as a stale mount.
 */
export function isMounted(point: string): boolean {
  return mountTypeAt(point).startsWith('fuse');
}

/** The file system type of the topmost mount at `point` (`fuse.spool`, `fuse.rclone`, `ext4` ...), or '' when none. */
export function mountTypeAt(point: string): string {
  try {
    const line = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .findLast((l) => l.split(' ')[1] === point.replace(/ /g, '\\040'));
    return line?.split(' ')[2] ?? '';
  } catch {
    return '';
  }
}

/** Detaches a mount left by a dead process (reading it would fail with ENOTCONN). */
export async function cleanStale(point: string, logger: Logger): Promise<void> {
  if (!isMounted(point)) return;
  logger.warn('detaching a stale mount', { mount_point: point });
  await run('fusermount3', ['-uz', point]).catch(async (err: Error) => {
    logger.warn('fusermount3 failed, trying umount -l', { error: err.message });
    await run('umount', ['-l', point]).catch((e: Error) => logger.warn('umount -l failed', { error: e.message }));
  });
}

/** rclone-style durations ('1s', '10m', '1h30m') in seconds; plain numbers are seconds. */
export function seconds(value: string | number, fallback: number): number {
  if (typeof value === 'number') return value;
  let total = 0;
  for (const m of value.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)?/g)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n / 1000 : m[2] === 'm' ? n * 60 : m[2] === 'h' ? n * 3600 : m[2] === 'd' ? n * 86400 : n;
  }
  return total > 0 ? total : fallback;
}
