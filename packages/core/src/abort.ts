import { AbortError } from './errors.js'

// AbortSignal helpers: the typed error an abort becomes, a listener's cleanup, a race with a signal.

export function abortError(signal: AbortSignal): AbortError {
  return new AbortError('The operation was aborted', { code: 'aborted', cause: signal.reason })
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal)
}

/** Calls `listener` once when `signal` aborts; returns the cleanup. */
export function onAbort(signal: AbortSignal | undefined, listener: () => void): () => void {
  signal?.addEventListener('abort', listener, { once: true })
  return () => signal?.removeEventListener('abort', listener)
}

/** Races a shared promise against one caller's signal without cancelling the shared work. */
export function withSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(abortError(signal))
  return new Promise<T>((resolve, reject) => {
    const off = onAbort(signal, () => reject(abortError(signal)))
    promise.then(
      (v) => {
        off()
        resolve(v)
      },
      (e: unknown) => {
        off()
        reject(e)
      },
    )
  })
}
