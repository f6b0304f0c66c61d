import { createMutation, type MutationOptions, type MutationSnapshot, type TandemClient } from '@tandem/core'
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { useTandem } from './use-tandem.js'

export type UseMutationOptions<V, R, C = unknown> = MutationOptions<V, R, C>

export interface MutationResult<V, R> extends MutationSnapshot<R, V> {
  /** Fire and forget: a failure shows in `status`/`error` (and `onError`), never as an unhandled rejection. */
  mutate(variables: V): void
  /** Resolves with the result or rejects with the error. */
  mutateAsync(variables: V): Promise<R>
  /** Back to `idle`. */
  reset(): void
}

/**
 * A write with optimistic updates: `onMutate` may return `cache.setData`'s rollback, which runs
 * when the call fails; `invalidate` refetches the lists it touched once it settles.
 *
 * @example
 * ```ts
 * const reply = useMutation((text: string, client) => client.support.conversations.reply(id, { text }), {
 *   invalidate: { service: 'support', collection: 'conversations' },
 * })
 * ```
 */
export function useMutation<V = void, R = unknown, C = unknown>(
  fn: (variables: V, client: TandemClient) => Promise<R>,
  options: UseMutationOptions<V, R, C> = {},
): MutationResult<V, R> {
  const { client, cache } = useTandem()
  const [m] = useState(() => createMutation<V, R, C>(cache, (v) => fn(v, client), options))
  // The latest closures; committed renders only (as TanStack does).
  useEffect(() => m.setOptions((v) => fn(v, client), options))
  const s = useSyncExternalStore(m.subscribe, m.getSnapshot, m.getSnapshot)
  const mutate = useCallback((v: V) => void m.mutate(v).catch(() => {}), [m])
  return { ...s, mutate, mutateAsync: m.mutate, reset: m.reset }
}
