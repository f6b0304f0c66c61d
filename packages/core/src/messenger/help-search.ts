import { PAGE_MAX, PAGE_MIN } from '@tandem/contract'
import { MAX_TIMER_MS } from '../timers.js'
import { HELP_SEARCH_DEBOUNCE_MS } from '../defaults.js'
import { isAbortError } from '../errors.js'
import { createStore } from '../store.js'
import { requireNumber, optional } from '../validate.js'
import { toTandemError } from './live-runner.js'
import type { MessengerRest } from './rest.js'
import type { HelpSearch, HelpSearchOptions, HelpSearchSnapshot } from './types.js'

// A search box over the published docs: one request per pause in typing, the one before it
// aborted, so an older answer can never replace a newer one.

const IDLE: HelpSearchSnapshot = { status: 'idle', query: '', articles: [], error: null }

export function createHelpSearch(docs: MessengerRest['docs'], options: HelpSearchOptions = {}): HelpSearch {
  const debounceMs =
    optional(options.debounceMs, (v) => requireNumber(v, 'debounceMs', 0, MAX_TIMER_MS)) ?? HELP_SEARCH_DEBOUNCE_MS
  const limit = optional(options.limit, (v) => requireNumber(v, 'limit', PAGE_MIN, PAGE_MAX, true))
  const store = createStore(IDLE)
  let timer: ReturnType<typeof setTimeout> | undefined
  let inFlight: AbortController | undefined

  const cancel = () => {
    clearTimeout(timer)
    inFlight?.abort()
    inFlight = undefined
  }

  const send = async (query: string) => {
    const controller = (inFlight = new AbortController())
    try {
      const page = await docs.search({ query, limit }, { signal: controller.signal })
      if (inFlight === controller) store.set({ status: 'ready', query, articles: page.data, error: null })
    } catch (e) {
      if (inFlight !== controller || isAbortError(e)) return
      store.set((s) => ({ ...s, status: 'error', query, error: toTandemError(e) }))
    } finally {
      if (inFlight === controller) inFlight = undefined
    }
  }

  return {
    getSnapshot: store.getSnapshot,
    subscribe: store.subscribe,
    search(query) {
      const q = typeof query === 'string' ? query.trim() : ''
      cancel()
      if (!q) return store.set(IDLE)
      store.set((s) => (s.status === 'loading' && s.query === q ? s : { ...s, status: 'loading', query: q }))
      timer = setTimeout(() => void send(q), debounceMs)
    },
    close: cancel,
  }
}
