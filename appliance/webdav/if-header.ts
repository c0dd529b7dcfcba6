/**
 * RFC 4918 §10.4 `If:` header. A header is a set of lists, optionally tagged with a resource URL; a list is true
 * when all its conditions are; the header is true when, for the resource under test, some list is true.
 * Parsing never throws on client input: anything unparseable is reported as `null` (the caller answers 400).
 */
export interface IfCondition {
  not: boolean;
  kind: 'token' | 'etag';
  value: string;
}
export interface IfList {
  /** Decoded path of the tagged resource, or null for an untagged list (applies to the request URL). */
  resource: string | null;
  conditions: IfCondition[];
}

export function parseIfHeader(header: string, resolve: (url: string) => string | null): IfList[] | null {
  const lists: IfList[] = [];
  let i = 0;
  let tag: string | null = null;
  const s = header;
  const skip = () => {
    while (i < s.length && /\s/.test(s[i] as string)) i++;
  };
  while (true) {
    skip();
    if (i >= s.length) break;
    if (s[i] === '<') {
      const end = s.indexOf('>', i);
      if (end < 0) return null;
      tag = resolve(s.slice(i + 1, end));
      if (tag === null) return null;
      i = end + 1;
      continue;
    }
    if (s[i] !== '(') return null;
    i++;
    const conditions: IfCondition[] = [];
    while (true) {
      skip();
      if (s[i] === ')') {
        i++;
        break;
      }
      let not = false;
      if (s.slice(i, i + 3).toLowerCase() === 'not') {
        not = true;
        i += 3;
        skip();
      }
      if (s[i] === '<') {
        const end = s.indexOf('>', i);
        if (end < 0) return null;
        conditions.push({ not, kind: 'token', value: s.slice(i + 1, end) });
        i = end + 1;
      } else if (s[i] === '[') {
        const end = s.indexOf(']', i);
        if (end < 0) return null;
        conditions.push({ not, kind: 'etag', value: s.slice(i + 1, end).replace(/^W\//, '') });
        i = end + 1;
      } else return null;
    }
    if (conditions.length === 0) return null;
    lists.push({ resource: tag, conditions });
  }
  return lists.length ? lists : null;
}

/** Every lock token a client submitted positively (these unlock resources for the request). */
export function submittedTokens(lists: IfList[] | null): Set<string> {
  const out = new Set<string>();
  for (const l of lists ?? []) for (const c of l.conditions) if (c.kind === 'token' && !c.not) out.add(c.value);
  return out;
}

export interface ResourceState {
  etag: string | null;
  /** Tokens of the locks currently covering the resource. */
  tokens: Set<string>;
}

/**
 * Evaluates the header for the request URL (`path`); tagged lists for other resources are evaluated against
 * their own state. True when no list applies to anything (nothing to test).
 */
export function evaluateIf(lists: IfList[], path: string, stateOf: (path: string) => ResourceState): boolean {
  const byResource = new Map<string, IfList[]>();
  for (const l of lists) {
    const r = l.resource ?? path;
    byResource.set(r, [...(byResource.get(r) ?? []), l]);
  }
  for (const [resource, rl] of byResource) {
    const state = stateOf(resource);
    const ok = rl.some((l) =>
      l.conditions.every((c) => {
        const hit =
          c.kind === 'etag'
            ? state.etag !== null && state.etag.replace(/^W\//, '') === c.value
            : state.tokens.has(c.value);
        return c.not ? !hit : hit;
      }),
    );
    if (!ok) return false;
  }
  return true;
}
