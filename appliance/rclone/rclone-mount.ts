import { resolve, sep } from 'node:path';
import type { SpoolConfig } from '../config/index.js';
import type { Logger } from '../logging/logger.js';
import { RcdProcess } from './rcd.process.js';
import { RcloneClient, rcUrl } from './rclone.client.js';
import { globalOptions, mountOptions, unknownKeys, vfsOptions, webdavFs } from './rc-mount-options.js';

interface VfsStats {
  opt?: Record<string, unknown>;
  /** Present when the VFS caches on disk: `path` is <rcd cache dir>/vfs/<remote>. */
  diskCache?: { path?: string };
}

interface ListMounts {
  mountPoints?: { Fs: string; MountPoint: string }[];
}

/** What a started rclone mount reports: its VFS name on the rcd, and settings that rclone release ignored. */
export interface RcloneMountInfo {
  fs: string;
  /** Settings the rcd did not apply: `vfs.ChunkStreams`-style names it does not know (an older rclone), cache_dir. */
  ignored: string[];
}

/**
 * `mount_path` mounted by an rclone rcd over Spool's own WebDAV (the `rclone` mount backend, docs/fuse.md): the
 * rcd-wide settings by `options/set`, the mount by `mount/mount` with vfsOpt/mountOpt from the rclone section,
 * `mount/unmount` to stop, `mount/listmounts` for the status. rclone runs the FUSE side in its own process: the
 * operator's rcd (rc_url, or one on rc_port), else one Spool starts for the mount (rcd.process.ts).
 */
export class RcloneMount {
  private mountedFs = '';
  /** The settings the running mount was started with: stop and status talk to that rcd, whatever changed since. */
  private startedWith: { c: SpoolConfig; mountPoint: string } | null = null;
  private readonly rcd: RcdProcess;

  constructor(private readonly logger: Logger) {
    this.rcd = new RcdProcess(logger);
  }

  /** The rcd's name for the mounted VFS (for vfs/refresh), or '' when not mounted through rclone. */
  get fs(): string {
    return this.mountedFs;
  }

  async start(c: SpoolConfig, mountPoint: string): Promise<RcloneMountInfo> {
    await this.rcd.ensure(c);
    try {
      const info = await this.mount(c, mountPoint);
      this.startedWith = { c, mountPoint };
      return info;
    } catch (err) {
      await this.rcd.stop(); // one we started for this mount only
      throw err;
    }
  }

  private async mount(c: SpoolConfig, mountPoint: string): Promise<RcloneMountInfo> {
    const client = clientFor(c);
    const ignored: string[] = [];
    const wanted = globalOptions(c.rclone);
    await client.call('options/set', wanted);
    const now = await client.call<Record<string, Record<string, unknown>>>('options/get');
    for (const [block, opts] of Object.entries(wanted))
      ignored.push(...unknownKeys(opts, now[block] ?? {}).map((k) => `${block}.${k}`));
    const syslog = now.log?.UseSyslog;
    if (typeof syslog === 'boolean' && syslog !== c.rclone.syslog)
      ignored.push(
        `syslog (this rcd ${syslog ? 'logs to syslog' : 'does not log to syslog'}: --syslog is a start flag)`,
      );

    const vfsOpt = vfsOptions(c.rclone);
    // A mount left on the rcd by an earlier Spool (killed before it could unmount) is replaced, so the settings
    // of now apply.
    if ((await mountsOf(client)).some((m) => m.MountPoint === mountPoint)) {
      this.logger.warn('replacing a mount left on the rclone rcd', { mount_point: mountPoint });
      await client.call('mount/unmount', { mountPoint });
    }
    await client.call('mount/mount', {
      fs: await this.webdavRemote(c, client),
      mountPoint,
      vfsOpt,
      mountOpt: mountOptions(c.rclone),
    });
    // Mounted: from here on a failure only weakens the report, it does not undo the mount.
    let fs = '';
    let stats: VfsStats = {};
    try {
      fs = (await mountsOf(client)).find((m) => m.MountPoint === mountPoint)?.Fs ?? '';
      stats = await client.call<VfsStats>('vfs/stats', fs ? { fs } : {});
    } catch (err) {
      this.logger.warn('could not read back the rclone mount settings', { error: (err as Error).message });
    }
    this.mountedFs = fs;
    ignored.push(...unknownKeys(vfsOpt, stats.opt ?? {}).map((k) => `vfs.${k}`));
    const cacheDir = stats.diskCache?.path ?? '';
    if (cacheDir && !isUnder(cacheDir, c.rclone.cache_dir))
      ignored.push(`cache_dir (this rcd caches under ${cacheDir}: start it with --cache-dir ${c.rclone.cache_dir})`);
    if (ignored.length)
      this.logger.warn('the rclone rcd did not apply some settings', { mount_point: mountPoint, ignored });
    return { fs, ignored };
  }

  async stop(): Promise<void> {
    const started = this.startedWith;
    if (!started) return;
    try {
      await clientFor(started.c).call('mount/unmount', { mountPoint: started.mountPoint });
    } catch (err) {
      // An external rcd keeps the mount: say why and stay mounted (stop can be retried). The rcd Spool started
      // unmounts as it exits.
      if (!this.rcd.running) throw err;
      this.logger.warn('rclone mount/unmount failed; stopping the rcd Spool started', {
        error: (err as Error).message,
      });
    }
    this.mountedFs = '';
    this.startedWith = null;
    await this.rcd.stop(); // the rcd Spool started goes with the mount; an external one stays
  }

  /** True when the rcd of the running mount lists it. */
  async isMounted(): Promise<boolean> {
    const started = this.startedWith;
    if (!started) return false;
    return (await mountsOf(clientFor(started.c))).some((m) => m.MountPoint === started.mountPoint);
  }

  /**
   * Spool's WebDAV as an rclone remote. rclone signs in with the read-only `webdav.user`/`webdav.password` pair
   * (its password obscured by the rcd's own `core/obscure`, as rclone wants it); without login no account is needed.
   */
  private async webdavRemote(c: SpoolConfig, client: RcloneClient): Promise<string> {
    const url = String(c.rclone.mount_options.webdav_url ?? '').trim() || `http://127.0.0.1:${c.webdav.port}/webdav/`;
    if (!c.webdav.password) {
      if (c.auth.login_required)
        throw new Error(
          "rclone signs in to Spool's WebDAV with webdav.user and webdav.password: set webdav.password (WebDAV Server section)",
        );
      return webdavFs(url, '', '');
    }
    const { obscured } = await client.call<{ obscured: string }>('core/obscure', { clear: c.webdav.password });
    return webdavFs(url, c.webdav.user, obscured);
  }
}

/**
 * rclone's cache directory (like syslog) is a flag of the rcd process (`--cache-dir`), which no RC call changes: the mount can
 * only check that the rcd uses `cache_dir`, and says so when it does not.
 */
function isUnder(path: string, dir: string): boolean {
  const base = resolve(dir);
  return path === base || path.startsWith(base.endsWith(sep) ? base : base + sep);
}

function clientFor(c: SpoolConfig): RcloneClient {
  const r = c.rclone;
  // mount/mount answers once the mount is up, which waits on the first WebDAV listing: allow it time.
  return new RcloneClient({ url: rcUrl(r), user: r.rc_user, pass: r.rc_pass, timeoutMs: 60_000 });
}

async function mountsOf(client: RcloneClient): Promise<{ Fs: string; MountPoint: string }[]> {
  return (await client.call<ListMounts>('mount/listmounts')).mountPoints ?? [];
}
