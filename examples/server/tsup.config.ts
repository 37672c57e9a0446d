import { defineConfig } from 'tsup'

// One file to run with `node dist/main.js`; the Gatehouse packages stay external and are read from their dist.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['esm'],
  target: 'node20',
  sourcemap: true,
  clean: true,
})
