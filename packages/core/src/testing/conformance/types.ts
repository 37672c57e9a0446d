/**
 * @module
 * The shapes the adapter conformance suite is built from: the options an
 * adapter author passes, one runnable case, and what a case body receives.
 */
import type { Adapter, AdapterCapabilities } from '../../db/adapter.js'
import type { Schema } from '../../db/schema.js'

/** A named, reasoned exception: the listed cases are reported as skipped with the reason. */
export interface ConformanceSkip {
  readonly reason: string
  /** Case names exactly as `conformanceCaseNames` lists them. */
  readonly tests: readonly string[]
}

export interface AdapterConformanceOptions {
  /** Shown in the suite title: `adapter conformance: <name>`. */
  readonly name: string
  /**
   * Builds the adapter under test for the suite's schema (`conformanceSchema`:
   * core's models plus `conformanceItem`). Called once; the suite calls
   * `migrate()` afterwards when `capabilities.migrations` is true.
   */
  readonly createAdapter: (schema: Schema) => Adapter | Promise<Adapter>
  /**
   * The schema handed to `createAdapter`. Default `conformanceSchema`;
   * `namedConformanceSchema` runs the same cases on the same models stored
   * under other names (plural snake_case tables, renamed id columns:
   * docs/adapters.md#naming-tables-and-columns). An adapter that cannot be
   * given renamed tables leaves it out.
   */
  readonly schema?: Schema | undefined
  /**
   * The tables and their columns as the database itself lists them (its
   * catalog, read around the adapter). When given, a case checks that every
   * model is stored under the table and column names of the schema; without
   * it that case is skipped.
   */
  readonly listColumns?: (() => Promise<ReadonlyMap<string, ReadonlySet<string>>>) | undefined
  /** Removes every row between cases. Without it the suite calls `deleteMany` on every model, children first. */
  readonly reset?: (adapter: Adapter) => Promise<void>
  readonly skip?: readonly ConformanceSkip[]
}

export type ConformanceResult = { readonly status: 'passed' } | { readonly status: 'skipped'; readonly reason: string }

/** One case, runnable with or without a test runner. Cases share one adapter: run them one at a time. */
export interface ConformanceCase {
  readonly name: string
  /** Capabilities the case needs; without them `run` resolves as skipped. */
  readonly requires: readonly (keyof AdapterCapabilities)[]
  /** Resets the store, then runs the case; rejects with `ConformanceAssertionError` when the adapter misbehaves. */
  run(): Promise<ConformanceResult>
}

export interface ConformanceSuite {
  readonly cases: readonly ConformanceCase[]
  /** Calls `adapter.close()` if the adapter was created and has one. */
  close(): Promise<void>
}

/** What a case body receives: the adapter, freshly reset, and the suite's options. */
export interface CaseContext {
  readonly adapter: Adapter
  readonly schema: Schema
  readonly listColumns?: AdapterConformanceOptions['listColumns']
}

export interface CaseDefinition {
  readonly name: string
  readonly requires?: readonly (keyof AdapterCapabilities)[]
  /** The case reads the database's catalog: skipped unless the options give `listColumns`. */
  readonly needsCatalog?: boolean
  readonly body: (context: CaseContext) => Promise<void>
}
