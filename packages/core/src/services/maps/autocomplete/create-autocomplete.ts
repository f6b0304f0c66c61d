import { asTandemError } from '../../../as-tandem-error.js'
import { hasFields, MAX_QUERY, PLACE_AUTOCOMPLETE_FIELDS, AUTOCOMPLETE_LIMIT } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { MAX_TIMER_MS } from '../../../timers.js'
import type { Client } from '../../../base-client.js'
import type { RequestClient } from '../../../client-request.js'
import { ApiError, isAbortError, ValidationError } from '../../../errors.js'
import { createStore } from '../../../store.js'
import type { RateLimitState, Unsubscribe } from '../../../types.js'
import { optional, requireLatLng, requireNumber, requireObject } from '../../../validate.js'
import { autocompletePlaces } from '../autocomplete-places.js'
import {
  initialAutocompleteState,
  transition,
  type AutocompleteEffect,
  type AutocompleteEvent,
} from './autocomplete-machine.js'
import { AUTOCOMPLETE_DEFAULTS } from './defaults.js'
import { selectSuggestion } from './select-suggestion.js'
import type { Autocomplete, AutocompleteOptions } from './types.js'

// Suggestions as the user types, asking the service as little as the answers allow: what was
// answered before is kept (by input), and an input that extends one whose answer was complete is
// refined locally with the contract's rule (the same the service applies) when the rule can tell. One request at most in
// flight; a stale one is aborted unless the input still extends it (its answer may serve). Only an
// answer that fits the contract is kept, so what is kept can always be read; a failure is kept too,
// with a backoff, and neither its input nor one extending it is asked again until it lapses.
// What to do is autocomplete-machine.ts's; this runner owns the debounce, the request and the client's events.

/** A client with events: the maps rate limit tells how much may be asked. */
export type AutocompleteClient = RequestClient & Pick<Client, 'on'>

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
  /** An object of durations (`failureBackoff`, `quota`): each field given, else its default. */
  const durations = <T extends object>(field: string, defaults: T) => {
    const given = optional(o[field], (v) => requireObject(v, field)) ?? {}
    const out = { ...defaults } as Record<string, number>
    for (const k in out)
      out[k] = optional(given[k], (v) => requireNumber(v, `${field}.${k}`, 0, MAX_TIMER_MS)) ?? (out[k] as number)
    return out as { -readonly [K in keyof T]: number }
  }
  const failureBackoff = durations('failureBackoff', D.failureBackoff)
  const quota = durations('quota', D.quota)
  if (typeof client?.on !== 'function')
    throw new ValidationError(
      'client',
      DEV && process.env.NODE_ENV !== 'production' && 'must be a client from createClient',
    )

  const config = { minChars, debounceMs, cacheSize, failureBackoff, quota }
  // The one state, changed only by `dispatch`; the store shows its snapshot.
  let state = initialAutocompleteState(config)
  const store = createStore(state.snapshot)
  /** The debounce, and the request in flight: what the machine's `wait` and `ask` started. */
  let timer: ReturnType<typeof setTimeout> | undefined
  let request: AbortController | undefined

  function dispatch(event: AutocompleteEvent): void {
    const r = transition(state, event)
    state = r.state
    for (const effect of r.effects) run(effect)
    store.set(state.snapshot)
  }

  function run(e: AutocompleteEffect): void {
    switch (e.type) {
      case 'wait':
        clearTimeout(timer)
        timer = setTimeout(() => dispatch({ type: 'due', now: Date.now() }), e.ms)
        return
      case 'cancel':
        return clearTimeout(timer)
      case 'abort':
        request?.abort()
        request = undefined
        return
      case 'ask':
        return void ask(e.input)
      case 'unwatch':
        return offRate?.()
    }
  }

  async function ask(input: string): Promise<void> {
    const controller = (request = new AbortController())
    try {
      const answer = await autocompletePlaces(client, { input, near, limit }, { signal: controller.signal })
      if (request !== controller) return // aborted: a newer input did not need it
      // The pipeline checked it against the contract; a client's own `request` may not have.
      if (!hasFields(answer, PLACE_AUTOCOMPLETE_FIELDS))
        throw new ApiError(`maps: places:autocomplete answered another shape`, { code: 'bad_response' })
      request = undefined
      dispatch({ type: 'answered', input, answer, now: Date.now() })
    } catch (e) {
      if (request !== controller || isAbortError(e)) return
      request = undefined
      dispatch({ type: 'failed', input, error: asTandemError(e, 'internal_error'), now: Date.now() })
    }
  }

  const onRate = (rate: RateLimitState) => dispatch({ type: 'rate', state: rate })
  /** The quota is followed while someone watches: a store no one subscribes to holds no listener on the client. */
  let watchers = 0
  let offRate: Unsubscribe | undefined

  return {
    subscribe(listener) {
      const off = store.subscribe(listener)
      if (!watchers++ && !state.destroyed) offRate = client.on('rateLimit', onRate)
      let on = true
      return () => {
        if (!on) return
        on = false
        off()
        if (!--watchers) offRate?.()
      }
    },
    getSnapshot: store.getSnapshot,
    setQuery: (text) => dispatch({ type: 'typed', text: typeof text === 'string' ? text : '', now: Date.now() }),
    async select(suggestion) {
      requireObject(suggestion, 'suggestion')
      // Chosen: the list closes and the input shows the suggestion's text.
      dispatch({ type: 'selected', text: suggestion.text })
      return selectSuggestion(client, suggestion)
    },
    clear: () => dispatch({ type: 'clear' }),
    destroy: () => dispatch({ type: 'destroy' }),
  }
}
