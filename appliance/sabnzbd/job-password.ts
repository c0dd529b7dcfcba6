/**
 * SABnzbd's ways to give an archive password with an NZB (docs/sabnzbd.md): the `password` parameter, or a job
 * name (nzbname, else the uploaded file name) written `Name{{password}}`. The braces never reach the job name.
 * An explicit `password` parameter wins over one in the name.
 */
export function splitJobPassword(name: string, passwordParam?: string): { name: string; password?: string } {
  const m = /^(.*?)\{\{(.*)\}\}(\.nzb)?$/i.exec(name);
  const bare = m ? `${m[1]!.trim()}${m[3] ?? ''}` : name;
  const fromName = m && m[2] !== '' ? m[2] : undefined;
  const password = passwordParam !== undefined && passwordParam !== '' ? passwordParam : fromName;
  return password === undefined ? { name: bare } : { name: bare, password };
}
