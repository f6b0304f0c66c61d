import type { TandemError } from '../errors.js'
import { createEmitter } from '../events.js'
import { asTandemError } from '../as-tandem-error.js'
import type { Unsubscribe } from '../types.js'
import type { CacheFilter, ResourceCache } from './types.js'

export type MutationStatus = 'idle' | 'pending' | 'success' | 'error'

export interface MutationSnapshot<R = unknown, V = unknown> {
  status: MutationStatus
  data: R | undefined
  /** The client's error, or what `fn` (or a callback) threw as a `TandemError` `mutation_failed` (the thrown value its `cause`). */
  error: TandemError | null
  /** The variables of the latest call. */
  variables: V | undefined
}

export interface MutationOptions<V = unknown, R = unknown, C = unknown> {
  /**
   * Runs before the call: apply an optimistic update here. What it returns is the context
   * handed to the other callbacks; a function (such as `cache.setData`'s) is also the
   * rollback, called automatically when the call fails.
   */
  onMutate?: (variables: V) => C | Promise<C>
  onSuccess?: (data: R, variables: V, context: C | undefined) => unknown
  /** Runs after the automatic rollback. */
  onError?: (error: TandemError, variables: V, context: C | undefined) => unknown
  onSettled?: (data: R | undefined, error: TandemError | null, variables: V, context: C | undefined) => unknown
  /** Invalidated once the call settles (success or failure), so watched lists show the service's truth. */
  invalidate?: CacheFilter | CacheFilter[]
}

/** A mutation as a store (`subscribe`/`getSnapshot`), so any UI binding is a thin wrapper. */
export interface Mutation<V = unknown, R = unknown, C = unknown> {
  subscribe: (listener: () => void) => Unsubscribe
  /** The same object until the state changes. */
  getSnapshot: () => MutationSnapshot<R, V>
  /** Resolves with the result, rejects with the snapshot's `error`; the state follows the latest call only. */
  mutate: (variables: V) => Promise<R>
  reset: () => void
  /** Swap in the latest function and callbacks (a component re-rendered with new closures). */
  setOptions: (fn: (variables: V) => Promise<R>, options?: MutationOptions<V, R, C>) => void
}

const IDLE: MutationSnapshot<never, never> = { status: 'idle', data: undefined, error: null, variables: undefined }

export function createMutation<V = unknown, R = unknown, C = unknown>(
  cache: ResourceCache,
  fn: (variables: V) => Promise<R>,
  options: MutationOptions<V, R, C> = {},
): Mutation<V, R, C> {
  const emitter = createEmitter<{ change: () => void }>()
  let snap: MutationSnapshot<R, V> = IDLE
  let latest = 0
  let current = { fn, options }

  const set = (call: number, next: MutationSnapshot<R, V>) => {
    if (call !== latest) return // an older call settling late must not overwrite a newer one
    snap = next
    emitter.emit('change')
  }

  return {
    subscribe: (listener) => emitter.on('change', listener),
    getSnapshot: () => snap,
    setOptions(fn, options = {}) {
      current = { fn, options }
    },
    reset() {
      latest++
      snap = IDLE
      emitter.emit('change')
    },
    async mutate(variables) {
      const call = ++latest
      const { fn, options: o } = current
      set(call, { status: 'pending', data: undefined, error: null, variables })
      let context: C | undefined
      try {
        context = await o.onMutate?.(variables)
        const data = await fn(variables)
        await o.onSuccess?.(data, variables, context)
        await o.onSettled?.(data, null, variables, context)
        await invalidate(cache, o.invalidate)
        set(call, { status: 'success', data, error: null, variables })
        return data
      } catch (thrown) {
        const error = asTandemError(thrown, 'mutation_failed')
        // A function context is the rollback (cache.setData's), by contract.
        if (typeof context === 'function') (context as () => void)()
        await o.onError?.(error, variables, context)
        await o.onSettled?.(undefined, error, variables, context)
        await invalidate(cache, o.invalidate)
        set(call, { status: 'error', data: undefined, error, variables })
        throw error
      }
    },
  }
}

function invalidate(cache: ResourceCache, filter: CacheFilter | CacheFilter[] | undefined): Promise<unknown> {
  if (!filter) return Promise.resolve()
  return Promise.all((Array.isArray(filter) ? filter : [filter]).map((f) => cache.invalidate(f)))
}
