import { dirname } from 'node:path'
import { defineConfig, type Options } from 'tsup'

type Plugin = NonNullable<Options['esbuildPlugins']>[number]

/**
 * `node dist/main.js` loads one bundle: the Gatehouse packages (from their
 * dist) and their dependencies are bundled in, so start-up reads and links a
 * handful of files instead of ~440 modules (kysely alone is 262), each with its
 * own resolution, package.json lookups and source string kept in memory. That
 * was about 100 ms of a cold start and 12 MiB of resident memory (bench/README.md#start-up-memory-and-list-endpoints).
 * Dynamic imports stay lazy as chunks of their own (the SQL drivers' adapters,
 * cluster mode, plugins' optional SDKs).
 *
 * Left external: the drivers only other deployments load (pg, mysql2,
 * ioredis), resolved from this package at run time. better-sqlite3's
 * JavaScript is bundled (15 CommonJS files fewer to resolve at start-up) and
 * its addon is named by database.ts. Whitespace and syntax are minified
 * (smaller source strings held by V8); identifiers keep their names, so stack
 * traces and `name`-based checks read as before, and the source map
 * (`node --enable-source-maps`) points into each package's files.
 */
const RUNTIME_EXTERNAL = ['pg', 'mysql2', 'ioredis']

/**
 * zod's main entry exposes every message locale as `z.locales` (about 40 of
 * them, a fifth of zod's code). The server speaks English and never switches
 * locale, so the bundle's `z.locales` holds English only.
 */
const englishOnlyZodLocales: Plugin = {
  name: 'english-only-zod-locales',
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js"',
      loader: 'js',
      resolveDir: dirname(args.path),
    }))
  },
}

export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  splitting: true,
  external: RUNTIME_EXTERNAL,
  noExternal: [new RegExp(`^(?!(${RUNTIME_EXTERNAL.join('|')})(/|$))`)],
  minifyWhitespace: true,
  minifySyntax: true,
  esbuildPlugins: [englishOnlyZodLocales],
  // better-sqlite3 is CommonJS and bundled: its \`require\`s of Node's modules need a \`require\` in ESM.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
})
