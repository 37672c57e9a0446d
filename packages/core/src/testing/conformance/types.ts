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

/** What a case body receives: the adapter, freshly reset. */
export interface CaseContext {
  readonly adapter: Adapter
}

export interface CaseDefinition {
  readonly name: string
  readonly requires?: readonly (keyof AdapterCapabilities)[]
  readonly body: (context: CaseContext) => Promise<void>
}
