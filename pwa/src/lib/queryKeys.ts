/**
 * The one way a console feature names its TanStack Query keys: `featureKeys(root)` gives the feature's `all` and
 * `key(...)`, which starts every key with the feature's root, so invalidating `all` reaches each query of the
 * feature and no two features share a key. Each feature declares its keys once, in its `<feature>Keys.ts`
 * (docs/console.md, "Query keys"); no screen writes a key array by hand.
 */
export function featureKeys<const Root extends string>(root: Root) {
  return {
    all: [root] as const,
    key: <const Rest extends readonly unknown[]>(...rest: Rest) => [root, ...rest] as const,
  };
}
