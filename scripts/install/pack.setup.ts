/**
 * @module
 * Packs the publishable packages once for every install check of the run,
 * and removes the tarballs afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { packPackages, type PackedPackage } from './install-kit.js'

declare module 'vitest' {
  export interface ProvidedContext {
    readonly packed: readonly PackedPackage[]
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const destination = mkdtempSync(join(tmpdir(), 'gatehouse-tarballs-'))
  project.provide('packed', await packPackages(destination))
  return () => rmSync(destination, { recursive: true, force: true })
}
