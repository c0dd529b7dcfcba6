import { createRequire } from 'node:module';

/**
 * @cocalc/fuse-native is CommonJS (`module.exports = Fuse`) but its typings say `export default`, which under
 * NodeNext types the default import as the module object. Loading it through require gives the real class,
 * typed with the typings' class.
 */
// eslint-disable-next-line @typescript-eslint/consistent-type-imports -- the only way to reach the CJS class type
type FuseModule = typeof import('@cocalc/fuse-native');
type FuseCtor = FuseModule['default'];
const require = createRequire(import.meta.url);
export const Fuse = require('@cocalc/fuse-native') as FuseCtor;
export type Fuse = InstanceType<FuseCtor>;
export type FuseOperations = NonNullable<ConstructorParameters<FuseCtor>[1]>;
/**
 * The typings say `timeout?: number`; index.js also takes false (no timer) or a per-operation object
 * (`{ read: false }`: `default` or 15 s for the others).
 */
export type FuseOptions = Omit<NonNullable<ConstructorParameters<FuseCtor>[2]>, 'timeout'> & {
  timeout?: number | false | Record<string, number | false>;
};
export type FuseStats = NonNullable<Parameters<Parameters<NonNullable<FuseOperations['getattr']>>[1]>[1]>;
