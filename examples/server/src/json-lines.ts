/**
 * @module
 * Appends JSON lines to a file, in call order. Test harnesses read MAIL_LOG
 * and WEBHOOK_LOG right after the HTTP response that caused the line, so a
 * line is on disk before the call resolves, and concurrent calls never
 * interleave within a line.
 */
import { appendFile, mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

export interface JsonLines {
  append(record: object): Promise<void>
}

/**
 * @example
 * const log = jsonLines('/tmp/mail.jsonl')
 * await log.append({ type: 'verify-email', to: 'ada@example.com' })
 */
export function jsonLines(path: string): JsonLines {
  let queue: Promise<void> = mkdir(dirname(path), { recursive: true }).then(() => undefined)
  return {
    append(record) {
      const line = `${JSON.stringify(record)}\n`
      // One append at a time: each waits for the previous, whatever happened to it.
      const written = queue.then(() => appendFile(path, line, 'utf8'))
      queue = written.catch(() => undefined)
      return written
    },
  }
}
