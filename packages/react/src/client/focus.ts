/**
 * @module
 * When to look again: the window regained focus (or the tab became visible)
 * or the browser came back online. The session is refetched then, throttled
 * by the caller, so a user who signed out in another window, or whose
 * session expired while the laptop slept, is noticed without a reload.
 */

export interface FocusOptions {
  readonly focus: boolean
  readonly reconnect: boolean
}

/**
 * Calls `callback` on focus, on the tab becoming visible and on reconnect;
 * returns the stop function. Does nothing outside a browser.
 *
 * @example
 * const stop = watchFocus({ focus: true, reconnect: true }, () => session.refreshIfOlderThan(5_000))
 */
export function watchFocus(options: FocusOptions, callback: () => void): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => {}
  const onVisibility = () => {
    if (document.visibilityState === 'visible') callback()
  }
  if (options.focus) {
    window.addEventListener('focus', callback)
    document.addEventListener('visibilitychange', onVisibility)
  }
  if (options.reconnect) window.addEventListener('online', callback)
  return () => {
    window.removeEventListener('focus', callback)
    document.removeEventListener('visibilitychange', onVisibility)
    window.removeEventListener('online', callback)
  }
}
