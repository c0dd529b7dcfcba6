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
export type FuseOptions = NonNullable<ConstructorParameters<FuseCtor>[2]>;
export type FuseStats = NonNullable<Parameters<Parameters<NonNullable<FuseOperations['getattr']>>[1]>[1]>;
