import { invalid } from './archive.types.js';

/**
 * A member's path as a relative path of the job (`Subs/en.srt`), or a failure: an archive may name anything, and
 * a name that climbs out (`../x`), is absolute, or carries control characters is refused, never cleaned up.
 */
export function safeMemberPath(raw: string): string {
  const name = raw.replace(/\\/g, '/');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f]/.test(name))
    throw invalid(`the archive names a member with control characters: ${JSON.stringify(raw)}`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name))
    throw invalid(`the archive names a member by an absolute path: ${raw}`);
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..')) throw invalid(`the archive names a member outside itself: ${raw}`);
  if (parts.length === 0) throw invalid(`the archive names a member with an empty path`);
  return parts.join('/');
}
