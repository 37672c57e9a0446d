import { defineConfig, type Options } from 'tsup'
import { packageBuild } from '../../tsup.package.js'

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number]

/** The vitest functions `./testing` imports; another one fails the CommonJS build until it is listed here. */
const VITEST_NAMES = ['afterAll', 'afterEach', 'beforeAll', 'beforeEach', 'describe', 'expect', 'it']

/**
 * vitest refuses `require()` (its CommonJS entry throws), so a CommonJS
 * `./testing` that required it up front could not even be loaded. In the
 * CommonJS build each vitest function stands in for itself and requires
 * vitest when first used: the module loads, and a conformance suite run
 * from CommonJS gets vitest's own explanation. The ESM build imports vitest as usual.
 */
const lazyVitestInCommonJs: EsbuildPlugin = {
  name: 'lazy-vitest-in-commonjs',
  setup(build) {
    // tsup builds the split CommonJS output as ESM and converts it afterwards: its define names the format.
    const commonJs = build.initialOptions.define?.TSUP_FORMAT === '"cjs"'
    // The stand-ins' own require of vitest (from the lazy-vitest namespace) stays a require of the real one.
    build.onResolve({ filter: /^vitest$/ }, ({ namespace }) =>
      commonJs && namespace !== 'lazy-vitest' ? { path: 'vitest', namespace: 'lazy-vitest' } : { path: 'vitest', external: true },
    )
    build.onLoad({ filter: /.*/, namespace: 'lazy-vitest' }, () => ({
      loader: 'js',
      contents: [
        "const load = (name) => require('vitest')[name]",
        // A Proxy over a function keeps calls (`it(...)`) and members (`it.skip`, `expect.any`) working.
        'const lazy = (name) => new Proxy(function () {}, { apply: (_, self, args) => load(name).apply(self, args), get: (_, key) => load(name)[key] })',
        ...VITEST_NAMES.map((name) => `export const ${name} = lazy('${name}')`),
      ].join('\n'),
    }))
  },
}

export default defineConfig({
  ...packageBuild(
    {
      index: 'src/index.ts',
      'adapters/memory': 'src/db/memory/index.ts',
      'adapters/kysely': 'src/db/kysely/index.ts',
      'adapters/sqlite': 'src/db/kysely/sqlite.ts',
      'adapters/postgres': 'src/db/kysely/postgres.ts',
      'adapters/mysql': 'src/db/kysely/mysql.ts',
      'storage/redis': 'src/storage/redis.ts',
      testing: 'src/testing/index.ts',
      node: 'src/integrations/node.ts',
      'cli/index': 'src/cli/index.ts',
    },
    [],
  ),
  // vitest is left to the plugin below (tsup would make it a plain external import in both formats).
  noExternal: ['vitest'],
  esbuildPlugins: [lazyVitestInCommonJs],
})
