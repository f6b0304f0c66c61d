import { extendsInput, parseAutocompleteInput, refineSuggestions } from '@tandem/contract'
import { backoffDelay } from '../../../backoff.js'
import type { TandemError } from '../../../errors.js'
import type { PlaceAutocomplete, PlaceSuggestion } from '../types.js'

// What autocomplete has learned, as plain values (the machine's, changed by copy): the answers it
// got, by input, and the failures that hold an input (and those extending it) back for a while.

export interface Answer extends PlaceAutocomplete {
  input: string
}

/** A failed input: its error, shown until `until` for it and the inputs extending it; `attempt` failures so far, less one. */
export interface Failure {
  input: string
  error: TandemError
  attempt: number
  until: number
}

export interface Memory {
  /** Answers by input key, least recently used first. */
  readonly answers: ReadonlyMap<string, Answer>
  /** Failures by input key, oldest first. */
  readonly failures: ReadonlyMap<string, Failure>
}

export type Parsed = ReturnType<typeof parseAutocompleteInput>

export const keyOf = ({ words }: Parsed): string => words.join(' ')
/** The letters and digits an input has beside a house number, however it is read ("1600 am": 2). */
export const nameLength = ({ readings }: Parsed): number => Math.min(...readings.map((r) => r.words.join('').length))

/** A copy of `map` with `key` (re)set last to `value` (or dropped), without its oldest keys beyond `max`. */
function put<V>(map: ReadonlyMap<string, V>, key: string, value: V | undefined, max: number): Map<string, V> {
  const copy = new Map(map)
  copy.delete(key)
  if (value) copy.set(key, value)
  for (const old of copy.keys()) {
    if (copy.size <= max) break
    copy.delete(old)
  }
  return copy
}

/** `answer` kept as the most recently used (at most `size` kept); answered, the input's next failure backs off from the start. */
export const remember = (m: Memory, key: string, answer: Answer, size: number): Memory => ({
  answers: put(m.answers, key, answer, size),
  failures: put(m.failures, key, undefined, Infinity),
})

/**
 * The suggestions for `input` from what is known (an answer for it, or a complete one it refines
 * by the contract's rule), with the memory that used it; `undefined` when only the service can tell.
 */
export function known(
  m: Memory,
  input: string,
  parsed: Parsed,
  size: number,
  extra?: Answer,
): { memory: Memory; suggestions: PlaceSuggestion[] } | undefined {
  const key = keyOf(parsed)
  const hit = m.answers.get(key) ?? (extra && keyOf(parseAutocompleteInput(extra.input)) === key ? extra : undefined)
  if (hit) return { memory: remember(m, key, hit, size), suggestions: hit.suggestions }
  for (const a of extra ? [extra, ...m.answers.values()] : m.answers.values()) {
    const suggestions = a.complete ? refineSuggestions(a.input, input, a) : undefined
    if (suggestions) return { memory: remember(m, key, { input, suggestions, complete: true }, size), suggestions }
  }
  return undefined
}

/** The failure that holds `input` back at `now`: its own, or one of an input it extends. */
export function heldBack(m: Memory, input: string, key: string, now: number): Failure | undefined {
  const own = m.failures.get(key)
  if (own && own.until > now) return own
  for (const f of m.failures.values()) if (f.until > now && extendsInput(f.input, input)) return f
  return undefined
}

/** `input` failed at `now`: held back for the backoff of its failures in a row (one more each time). */
export function fail(
  m: Memory,
  input: string,
  error: TandemError,
  now: number,
  size: number,
  backoff: { baseMs: number; maxMs: number },
): Memory {
  const key = keyOf(parseAutocompleteInput(input))
  const attempt = (m.failures.get(key)?.attempt ?? -1) + 1
  const until = now + backoffDelay(attempt, backoff.baseMs, backoff.maxMs)
  return { answers: m.answers, failures: put(m.failures, key, { input, error, attempt, until }, Math.max(size, 1)) }
}
