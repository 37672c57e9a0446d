/**
 * Prints one closing line, `Tests: N passed, N failed, N skipped`, that
 * tools outside vitest (CI's "ran no test" check) can read.
 */
import type { Reporter } from 'vitest/reporters'

interface TaskLike {
  type: string
  mode?: string
  result?: { state?: string }
  tasks?: TaskLike[]
}

function count(tasks: readonly TaskLike[], totals: { passed: number; failed: number; skipped: number }): void {
  for (const task of tasks) {
    if (task.tasks) count(task.tasks, totals)
    if (task.type !== 'test') continue
    if (task.mode === 'skip' || task.mode === 'todo') totals.skipped++
    else if (task.result?.state === 'pass') totals.passed++
    else if (task.result?.state === 'fail') totals.failed++
    else totals.skipped++
  }
}

export default class SummaryReporter implements Reporter {
  onFinished(files: readonly TaskLike[] = [], errors: readonly unknown[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 }
    count(files, totals)
    const failed = totals.failed + (totals.failed === 0 && errors.length > 0 ? errors.length : 0)
    console.log(`\nTests: ${totals.passed} passed, ${failed} failed, ${totals.skipped} skipped`)
  }
}
