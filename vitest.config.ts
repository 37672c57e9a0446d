import { defineConfig } from 'vitest/config'

/** Run-wide options; the projects are listed in vitest.workspace.ts. */
export default defineConfig({
  test: {
    reporters: ['default', './vitest.summary-reporter.ts'],
  },
})
