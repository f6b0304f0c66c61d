import {
  extendsInput,
  MAX_QUERY,
  parseAutocompleteInput,
  suggestionMatches,
  AUTOCOMPLETE_LIMIT,
} from '@tandem/contract'
import { MAX_TIMER_MS } from '../../../backoff.js'
import type { Client } from '../../../base-client.js'
import type { RequestClient } from '../../../client-request.js'
import { isAbortError, isTandemError, TandemError, ValidationError } from '../../../errors.js'
import { createStore } from '../../../store.js'
import type { RateLimitState, Unsubscribe } from '../../../types.js'
import { optional, requireLatLng, requireNumber, requireObject } from '../../../validate.js'
import { autocompletePlaces } from '../autocomplete-places.js'
import type { PlaceAutocomplete, PlaceSuggestion } from '../types.js'
import { AUTOCOMPLETE_DEFAULTS } from './defaults.js'
import { degradation } from './degradation.js'
import { selectSuggestion } from './select-suggestion.js'
import type { Autocomplete, AutocompleteOptions, AutocompleteQuota, AutocompleteSnapshot } from './types.js'

// Suggestions as the user types, asking the service as little as the answers allow: what was
// answered before is kept (by input), and an input that extends one whose answer was complete is
// filtered locally with the contract's rule (the same the service applies). One request at most in
// flight; a stale one is aborted unless the input still extends it (its answer may serve).

/** A client with events: the maps rate limit tells how much may be asked. */
export type AutocompleteClient = RequestClient & Pick<Client, 'on'>

interface Answer extends PlaceAutocomplete {
  input: string
}

type Parsed = ReturnType<typeof parseAutocompleteInput>

const IDLE: AutocompleteSnapshot = { status: 'idle', query: '', suggestions: [], error: null, degraded: null }
const keyOf = ({ houseNumber, words }: Parsed) => `${houseNumber ?? ''} ${words.join(' ')}`

/**
 * Suggestions for an address or a city as the user types, within the maps quota.
 *
 * @example
 * ```ts
 * const places = createAutocomplete(client, { near: { lat: 37.39, lng: -122.08 } })
 * places.subscribe(() => render(places.getSnapshot().suggestions))
 * input.oninput = () => places.setQuery(input.value)
 * ```
 */
export function createAutocomplete(client: AutocompleteClient, options: AutocompleteOptions = {}): Autocomplete {
  const o = requireObject(options, 'options')
  const D = AUTOCOMPLETE_DEFAULTS
  const num = (field: string, min: number, max: number, integer?: boolean) =>
    optional(o[field], (v) => requireNumber(v, field, min, max, integer))
  const debounceMs = num('debounceMs', 0, MAX_TIMER_MS) ?? D.debounceMs
  const minChars = num('minChars', 1, MAX_QUERY, true) ?? D.minChars
  const limit = num('limit', AUTOCOMPLETE_LIMIT.min, AUTOCOMPLETE_LIMIT.max, true) ?? D.limit
  const cacheSize = num('cacheSize', 0, 10_000, true) ?? D.cacheSize
  const near = optional(o.near, (v) => requireLatLng(v, 'near'))
  const q = optional(o.quota, (v) => requireObject(v, 'quota')) ?? {}
  const quota = { ...D.quota } as AutocompleteQuota
  for (const k in quota) {
    const key = k as keyof AutocompleteQuota
    quota[key] = optional(q[key], (v) => requireNumber(v, `quota.${key}`, 0, MAX_TIMER_MS)) ?? quota[key]
  }
  if (typeof client?.on !== 'function')
    throw new ValidationError('client', process.env.NODE_ENV !== 'production' && 'must be a client from createClient')

  const store = createStore(IDLE)
  /** Answers by input key, least recently used first. */
  const cache = new Map<string, Answer>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let inFlight: { input: string; controller: AbortController } | undefined
  /** The debounce for the current input has passed: it waits for the service. */
  let due = false
  let destroyed = false

  const set = (patch: Partial<AutocompleteSnapshot>) =>
    store.set((s) =>
      (Object.keys(patch) as (keyof AutocompleteSnapshot)[]).every((k) => s[k] === patch[k]) ? s : { ...s, ...patch },
    )

  const onRate = (state: RateLimitState) => {
    if (state.service !== 'maps') return
    const d = degradation(state, quota)
    const was = store.getSnapshot().degraded
    if (d?.reason !== was?.reason || d?.mode !== was?.mode) set({ degraded: d })
  }
  /** The quota is followed while someone watches: a store no one subscribes to holds no listener on the client. */
  let watchers = 0
  let offRate: Unsubscribe | undefined

  const remember = (key: string, answer: Answer) => {
    cache.delete(key)
    cache.set(key, answer)
    for (const old of cache.keys()) {
      if (cache.size <= cacheSize) break
      cache.delete(old)
    }
  }

  /** The suggestions for `input` from what is known, or `undefined` when only the service can tell. */
  function known(input: string, parsed: Parsed, extra?: Answer): PlaceSuggestion[] | undefined {
    const key = keyOf(parsed)
    const hit = cache.get(key) ?? (extra && keyOf(parseAutocompleteInput(extra.input)) === key ? extra : undefined)
    if (hit) {
      remember(key, hit) // most recently used
      return hit.suggestions
    }
    for (const a of extra ? [extra, ...cache.values()] : cache.values())
      if (a.complete && extendsInput(a.input, input)) {
        const suggestions = a.suggestions.filter((s) => suggestionMatches(parsed.words, s))
        remember(key, { input, suggestions, complete: true })
        return suggestions
      }
    return undefined
  }

  const abort = () => {
    inFlight?.controller.abort()
    inFlight = undefined
  }

  const stop = () => {
    clearTimeout(timer)
    due = false
    abort()
  }

  /** Serves the current input from what is known; else asks, once its debounce has passed and nothing else is in flight. */
  function advance(extra?: Answer): void {
    const { query } = store.getSnapshot()
    const found = known(query, parseAutocompleteInput(query), extra)
    if (found) {
      stop()
      set({ status: 'success', suggestions: found, error: null })
    } else if (due && !inFlight) void send(query)
  }

  async function send(input: string): Promise<void> {
    const controller = new AbortController()
    const mine = (inFlight = { input, controller })
    set({ status: 'loading' })
    try {
      const answer = await autocompletePlaces(client, { input, near, limit }, { signal: controller.signal })
      if (inFlight !== mine) return // aborted: a newer input did not need it
      inFlight = undefined
      const a = { ...answer, input }
      remember(keyOf(parseAutocompleteInput(input)), a)
      advance(a)
    } catch (e) {
      if (inFlight !== mine || isAbortError(e)) return
      inFlight = undefined
      due = false
      const error = isTandemError(e) ? e : new TandemError(String(e), { code: 'internal_error', cause: e })
      set({ status: 'error', error })
    }
  }

  return {
    subscribe(listener) {
      const off = store.subscribe(listener)
      if (!watchers++ && !destroyed) offRate = client.on('rateLimit', onRate)
      let on = true
      return () => {
        if (!on) return
        on = false
        off()
        if (!--watchers) offRate?.()
      }
    },
    getSnapshot: store.getSnapshot,
    setQuery(text) {
      if (destroyed) return
      const query = typeof text === 'string' ? text : ''
      const parsed = parseAutocompleteInput(query)
      const { query: before, suggestions } = store.getSnapshot()
      clearTimeout(timer)
      due = false
      if (query.length > MAX_QUERY) {
        abort()
        return set({
          status: 'error',
          query,
          suggestions: [],
          error: new ValidationError(
            'query',
            process.env.NODE_ENV !== 'production' && `must be at most ${MAX_QUERY} characters`,
          ),
        })
      }
      if (parsed.words.join('').length < minChars) {
        abort()
        return set({ status: 'idle', query, suggestions: [], error: null })
      }
      set({ query })
      const found = known(query, parsed)
      if (found) {
        abort()
        return set({ status: 'success', suggestions: found, error: null })
      }
      // In flight for an input this one extends: its answer may still serve, so it goes on.
      if (inFlight && !extendsInput(inFlight.input, query)) abort()
      // Meanwhile, the earlier suggestions that still match (none when the input changed otherwise).
      const narrowed = extendsInput(before, query) ? suggestions.filter((s) => suggestionMatches(parsed.words, s)) : []
      set({ status: 'debouncing', suggestions: narrowed, error: null })
      const mode = store.getSnapshot().degraded?.mode
      const wait =
        mode === 'paused'
          ? Math.max(debounceMs, quota.pauseMs)
          : mode === 'slower'
            ? debounceMs * quota.slowerFactor
            : debounceMs
      timer = setTimeout(() => {
        due = true
        if (inFlight) set({ status: 'loading' }) // its answer comes first, then this input is served or asked
        advance()
      }, wait)
    },
    async select(suggestion) {
      requireObject(suggestion, 'suggestion')
      stop()
      // Chosen: the list closes and the input shows the suggestion's text.
      if (!destroyed) set({ status: 'idle', query: suggestion.text, suggestions: [], error: null })
      return selectSuggestion(client, suggestion)
    },
    clear() {
      stop()
      set({ ...IDLE, degraded: store.getSnapshot().degraded })
    },
    destroy() {
      destroyed = true
      stop()
      offRate?.()
    },
  }
}
