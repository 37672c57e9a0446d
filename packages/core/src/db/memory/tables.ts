/**
 * @module
 * Copy-on-write tables for the in-memory adapter. A `Tables` value maps each
 * model to its rows by id; `fork()` is O(models), and a fork copies a model's
 * map only the first time it writes to it. A write or a transaction works on
 * a fork and the parent `absorb`s it on success; on failure the fork is
 * dropped, which is the whole of rollback. Stored rows are never mutated in
 * place (updates store a new object), so forks can share them.
 */
import type { Row } from '../adapter.js'

const EMPTY: ReadonlyMap<string, Row> = new Map()

export class Tables {
  private readonly tables: Map<string, ReadonlyMap<string, Row>>
  private readonly owned = new Map<string, Map<string, Row>>()

  constructor(source: ReadonlyMap<string, ReadonlyMap<string, Row>> = new Map()) {
    this.tables = new Map(source)
  }

  rows(model: string): ReadonlyMap<string, Row> {
    return this.tables.get(model) ?? EMPTY
  }

  /** The model's rows, copied first if this fork has not written to them yet. */
  writable(model: string): Map<string, Row> {
    let table = this.owned.get(model)
    if (!table) {
      table = new Map(this.rows(model))
      this.owned.set(model, table)
      this.tables.set(model, table)
    }
    return table
  }

  fork(): Tables {
    return new Tables(this.tables)
  }

  /** Takes over every model `child` wrote to; `child` must not be used afterwards. */
  absorb(child: Tables): void {
    for (const [model, table] of child.owned) {
      this.tables.set(model, table)
      this.owned.set(model, table)
    }
  }
}
