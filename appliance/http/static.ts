import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Fallback } from './dispatch.js';
import type { Reply } from './reply.js';
import type { HttpRequest } from './request.js';

interface StaticFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  etag: string;
  cacheControl: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Paths the console never answers: the SPA fallback must not hide a missing API route behind index.html. */
const SERVER_PREFIXES = ['/api', '/sabnzbd', '/webdav', '/ping'];

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Spool</title>
<h1>Spool is running, but its console is not built</h1>
<p>Build it with <code>npm run build</code> (or <code>npm run build:pwa</code>) and restart Spool.
The API at <code>/api</code>, WebDAV at <code>/webdav</code> and the SABnzbd API at <code>/sabnzbd/api</code> work meanwhile.</p>`;

function isServerPath(path: string): boolean {
  return SERVER_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`));
}

function cacheControlFor(urlPath: string): string {
  // Vite puts content-hashed names under /assets: they never change, so a year and immutable.
  if (urlPath.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  // index.html, sw.js, the manifest and icons: always revalidate (cheap with the ETag), so updates show at once.
  return 'no-cache';
}

function loadDir(root: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (dir: string) => {
    for (const name of readDirIfPresent(dir)) {
      const full = join(dir, name);
      const body = readFileIfPresent(full);
      if (body === 'dir') {
        walk(full);
        continue;
      }
      if (!body) continue; // removed while we read (a console rebuild in progress): serve what is there
      const urlPath = '/' + relative(root, full).split(sep).join('/');
      const type = TYPES[extname(name).toLowerCase()] ?? 'application/octet-stream';
      const compressible = /^(text\/|application\/(json|manifest\+json|javascript)|image\/svg)/.test(type);
      const gzip = compressible && body.length > 256 ? gzipSync(body, { level: 9 }) : null;
      const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;
      files.set(urlPath, {
        body,
        gzip: gzip && gzip.length < body.length ? gzip : null,
        type,
        etag,
        cacheControl: cacheControlFor(urlPath),
      });
    }
  };
  walk(root);
  return files;
}

const vanished = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

function readDirIfPresent(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch (err) {
    if (vanished(err)) return [];
    throw err;
  }
}

function readFileIfPresent(path: string): Buffer | 'dir' | null {
  try {
    return statSync(path).isDirectory() ? 'dir' : readFileSync(path);
  } catch (err) {
    if (vanished(err)) return null;
    throw err;
  }
}

/**
 * The built console (dist/pwa), read into memory once: a few hundred KiB, served with ETag/304 and
 * pre-gzipped text. Unknown paths that look like pages (no file extension) get index.html so deep links work.
 */
export function createStaticConsole(root: string): { fallback: Fallback; built: boolean; fileCount: number } {
  const files = existsSync(join(root, 'index.html')) ? loadDir(root) : new Map<string, StaticFile>();
  const built = files.has('/index.html');
  const fallback: Fallback = (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    if (isServerPath(req.rawPath)) return false;
    if (!built) {
      reply
        .status(503)
        .header('Cache-Control', 'no-store')
        .send(NOT_BUILT, 'text/html; charset=utf-8', req.method === 'HEAD');
      return true;
    }
    let path: string;
    try {
      path = decodeURIComponent(req.rawPath);
    } catch {
      return false;
    }
    const file = files.get(path === '/' ? '/index.html' : path);
    if (file) return serve(req, reply, file);
    const lastSegment = path.slice(path.lastIndexOf('/') + 1);
    if (lastSegment.includes('.')) return false; // a missing file, not a page: 404
    return serve(req, reply, files.get('/index.html') as StaticFile);
  };
  return { fallback, built, fileCount: files.size };
}

function serve(req: HttpRequest, reply: Reply, file: StaticFile): boolean {
  reply.header('Cache-Control', file.cacheControl).header('ETag', file.etag).header('Vary', 'Accept-Encoding');
  const ifNoneMatch = req.header('if-none-match');
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === file.etag || t.trim() === `W/${file.etag}`)) {
    reply.status(304).end();
    return true;
  }
  const head = req.method === 'HEAD';
  if (file.gzip && /\bgzip\b/.test(req.header('accept-encoding') ?? '')) {
    reply.status(200).header('Content-Encoding', 'gzip').send(file.gzip, file.type, head);
  } else {
    reply.status(200).send(file.body, file.type, head);
  }
  return true;
}
