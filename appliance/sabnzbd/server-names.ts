/**
 * SABnzbd names a server by its config name, the host unless the user chose another. Spool's providers have a
 * host and an id: the host names it; two providers on one host get `host:port`, and the id if that is shared too.
 */
export function serverNames(providers: readonly { id: string; host: string; port: number }[]): Map<string, string> {
  const count = (key: (p: (typeof providers)[number]) => string) => {
    const n = new Map<string, number>();
    for (const p of providers) n.set(key(p), (n.get(key(p)) ?? 0) + 1);
    return n;
  };
  const hosts = count((p) => p.host);
  const hostPorts = count((p) => `${p.host}:${p.port}`);
  const names = new Map<string, string>();
  for (const p of providers) {
    const hp = `${p.host}:${p.port}`;
    names.set(hosts.get(p.host) === 1 ? p.host : hostPorts.get(hp) === 1 ? hp : `${hp} (${p.id})`, p.id);
  }
  return names;
}
