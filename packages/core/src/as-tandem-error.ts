import { TandemError, isTandemError } from './errors.js'

/**
 * A thrown value as the `TandemError` every error the SDK exposes is typed: itself when it is one;
 * otherwise one with `code`, its message (after `context`, when given), and the thrown value as
 * `cause` (`error.cause instanceof MyError` still works). The one place this is done: the cache's
 * call queries, mutations and live sources, the outbox, autocomplete and the messenger's stores.
 */
export function asTandemError(thrown: unknown, code: string, context?: string): TandemError {
  if (isTandemError(thrown)) return thrown
  const message = thrown instanceof Error ? thrown.message : String(thrown)
  return new TandemError(context ? `${context}: ${message}` : message, { code, cause: thrown })
}
