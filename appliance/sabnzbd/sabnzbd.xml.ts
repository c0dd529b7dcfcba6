/**
 * `output=xml`, the way SABnzbd writes it: `<?xml ...?>` then the reply's one key as the root element, nested
 * objects as elements, each list item in an element named after its list without the plural `s` (`<slots><slot>`),
 * booleans as True/False, null as an empty element.
 */
export function toSabXml(body: Record<string, unknown>): string {
  const keys = Object.keys(body);
  // A bare {status, error} or {status, nzo_ids} reply has no single data key: SABnzbd wraps those in <result>.
  const [root, value] = keys.length === 1 ? [keys[0]!, body[keys[0]!]] : ['result', body];
  return `<?xml version="1.0" encoding="UTF-8" ?>\n${element(root, value)}\n`;
}

function element(name: string, value: unknown): string {
  const tag = /^[A-Za-z_][\w.-]*$/.test(name) ? name : 'item';
  if (value === null || value === undefined) return `<${tag} />`;
  if (Array.isArray(value)) {
    const child = tag.endsWith('s') && tag.length > 1 ? tag.slice(0, -1) : 'item';
    return `<${tag}>${value.map((v) => element(child, v)).join('')}</${tag}>`;
  }
  if (typeof value === 'object') {
    const inner = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(k, v))
      .join('');
    return `<${tag}>${inner}</${tag}>`;
  }
  const text = typeof value === 'boolean' ? (value ? 'True' : 'False') : String(value as string | number);
  return `<${tag}>${escapeXml(text)}</${tag}>`;
}

function escapeXml(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.charCodeAt(0);
    // Control characters other than tab and newlines are not allowed in XML 1.0 at all.
    if (code < 0x20 && code !== 9 && code !== 10 && code !== 13) continue;
    out += c === '<' || c === '>' || c === '&' || c === '"' || c === "'" ? `&#${code};` : c;
  }
  return out;
}
