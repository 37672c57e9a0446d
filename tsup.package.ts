/**
 * @module
 * The one build core and every plugin package share: ESM and CommonJS with
 * types and source maps for Node 20, code split between entries, the other
 * Gatehouse packages left as imports (plugins peer-depend on them, so an
 * application has one copy of each). A package's `tsup.config.ts` names only
 * its entries and which of its peers it imports.
 *
 * Types only from tsup: this file sits outside every package, where tsup is
 * not resolvable, so it returns plain options that the caller's
 * `defineConfig` checks.
 *
 * @example
 * // packages/notes/tsup.config.ts
 * export default defineConfig(packageBuild({ index: 'src/index.ts', client: 'src/client.ts' }, ['@gatehouse/core', '@gatehouse/react']))
 */
export function packageBuild(entry: Readonly<Record<string, string>>, external: readonly string[]) {
  return {
    entry: { ...entry },
    format: ['esm', 'cjs'] as ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
    external: [...external],
  }
}
