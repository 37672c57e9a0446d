import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts', client: 'src/client.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
  external: ['@gatehouse/core', '@gatehouse/react'],
})
