import { asTandemError } from '../../../as-tandem-error.js'
import {
  extendsInput,
  hasFields,
  MAX_QUERY,
  parseAutocompleteInput,
  PLACE_AUTOCOMPLETE_FIELDS,
  refineSuggestions,
  AUTOCOMPLETE_LIMIT,
} from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { backoffDelay } from '../../../backoff.js'
import { MAX_TIMER_MS } from '../../../timers.js'
import type { Client } from '../../../base-client.js'
import type { RequestClient } from '../../../client-request.js'
import { ApiError, isAbortError, TandemError, ValidationError } from '../../../errors.js'
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
// refined locally with the contract's rule (the same the service applies) when the rule can tell. One request at most in
// flight; a stale one is aborted unless the input still extends it (its answer may serve). Only an
// answer that fits the contract is kept, so what is kept can always be read; a failure is kept too,
// with a backoff, and neither its input nor one extending it is asked again until it lapses.

/** A client with events: the maps rate limit tells how much may be asked. */
export type AutocompleteClient = RequestClient & Pick<Client, 'on'>

interface Answer extends PlaceAutocomplete {
  input: string
}

/** A failed input: its error, shown until `until` for it and the inputs extending it; `attempt` failures so far, less one. */
interface Failure {
  input: string
  error: TandemError
  attempt: number
  until: number
}

type Parsed = ReturnType<typeof parseAutocompleteInput>

const IDLE: AutocompleteSnapshot = { status: 'idle', query: '', suggestions: [], error: null, degraded: null }
const keyOf = ({ words }: Parsed) => words.join(' ')
/** The letters and digits an input has beside a house number, however it is read ("1600 am": 2). */
const nameLength = ({ readings }: Parsed) => Math.min(...readings.map((r) => r.words.join('').length))

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
  const fb = optional(o.failureBackoff, (v) => requireObject(v, 'failureBackoff')) ?? {}
  const failBase =
    optional(fb.baseMs, (v) => requireNumber(v, 'failureBackoff.baseMs', 0, MAX_TIMER_MS)) ?? D.failureBackoff.baseMs
  const failMax =
    optional(fb.maxMs, (v) => requireNumber(v, 'failureBackoff.maxMs', 0, MAX_TIMER_MS)) ?? D.failureBackoff.maxMs
  const q = optional(o.quota, (v) => requireObject(v, 'quota')) ?? {}
  const quota = { ...D.quota } as AutocompleteQuota
  for (const k in quota) {
    const key = k as keyof AutocompleteQuota
    quota[key] = optional(q[key], (v) => requireNumber(v, `quota.${key}`, 0, MAX_TIMER_MS)) ?? quota[key]
  }
  if (typeof client?.on !== 'function')
    throw new ValidationError(
      'client',
      DEV && process.env.NODE_ENV !== 'production' && 'must be a client from createClient',
    )

  const store = createStore(IDLE)
  /** Answers by input key, least recently used first. */
  const cache = new Map<string, Answer>()
  /** Failures by input key, oldest first. */
  const failures = new Map<string, Failure>()
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
    failures.delete(key) // answered: its next failure backs off from the start again
    cache.delete(key)
    cache.set(key, answer)
    for (const old of cache.keys()) {
      if (cache.size <= cacheSize) break
      cache.delete(old)
    }
  }

  /** The failure that holds `input` back now: its own, or one of an input it extends. */
  function failed(input: string, key: string): Failure | undefined {
    const now = Date.now()
    const own = failures.get(key)
    if (own && own.until > now) return own
    for (const f of failures.values()) if (f.until > now && extendsInput(f.input, input)) return f
    return undefined
  }

  const fail = (input: string, error: TandemError) => {
    const key = keyOf(parseAutocompleteInput(input))
    const attempt = (failures.get(key)?.attempt ?? -1) + 1
    failures.delete(key)
    failures.set(key, { input, error, attempt, until: Date.now() + backoffDelay(attempt, failBase, failMax) })
    for (const old of failures.keys()) {
      if (failures.size <= Math.max(cacheSize, 1)) break
      failures.delete(old)
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
    for (const a of extra ? [extra, ...cache.values()] : cache.values()) {
      const suggestions = a.complete ? refineSuggestions(a.input, input, a) : undefined
      if (suggestions) {
        remember(key, { input, suggestions, complete: true })
        return suggestions
      }
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

  /**
   * Serves the current input from what is known (an answer, or a failure that holds it back); else
   * asks, once its debounce has passed and nothing else is in flight.
   */
  function advance(extra?: Answer): void {
    const { query } = store.getSnapshot()
    const parsed = parseAutocompleteInput(query)
    const found = known(query, parsed, extra)
    const failure = found ? undefined : failed(query, keyOf(parsed))
    if (found || failure) stop()
    if (found) set({ status: 'success', suggestions: found, error: null })
    else if (failure) set({ status: 'error', suggestions: [], error: failure.error })
    else if (due && !inFlight) void send(query)
  }

  async function send(input: string): Promise<void> {
    const controller = new AbortController()
    const mine = (inFlight = { input, controller })
    set({ status: 'loading' })
    try {
      const answer = await autocompletePlaces(client, { input, near, limit }, { signal: controller.signal })
      if (inFlight !== mine) return // aborted: a newer input did not need it
      // The pipeline checked it against the contract; a client's own `request` may not have.
      if (!hasFields(answer, PLACE_AUTOCOMPLETE_FIELDS))
        throw new ApiError(`maps: places:autocomplete answered another shape`, { code: 'bad_response' })
      inFlight = undefined
      const a = { ...answer, input }
      remember(keyOf(parseAutocompleteInput(input)), a)
      advance(a)
    } catch (e) {
      if (inFlight !== mine || isAbortError(e)) return
      inFlight = undefined
      due = false
      const error = asTandemError(e, 'internal_error')
      fail(input, error) // the current input is this one or extends it (else it was aborted): held back too
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
            DEV && process.env.NODE_ENV !== 'production' && `must be at most ${MAX_QUERY} characters`,
          ),
        })
      }
      if (nameLength(parsed) < minChars) {
        abort()
        return set({ status: 'idle', query, suggestions: [], error: null })
      }
      set({ query })
      const found = known(query, parsed)
      if (found) {
        abort()
        return set({ status: 'success', suggestions: found, error: null })
      }
      // It failed lately (or an input it extends did): the error again, and nothing asked until it lapses.
      const failure = failed(query, keyOf(parsed))
      if (failure) {
        abort()
        return set({ status: 'error', suggestions: [], error: failure.error })
      }
      // In flight for an input this one extends: its answer may still serve, so it goes on.
      if (inFlight && !extendsInput(inFlight.input, query)) abort()
      // Meanwhile, the earlier suggestions that still match (none when the input changed otherwise,
      // or when the rule cannot tell: those may be an unfinished answer's, and a number was typed).
      const narrowed = refineSuggestions(before, query, { suggestions, complete: false }) ?? []
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
