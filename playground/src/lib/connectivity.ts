import { isTandemError } from '@tandem/core'

/**
 * What the playground says when a failure is the connection's, not the request's: it ends by
 * itself when the network (or the app's token endpoint) is back, so it is said politely, never
 * as an alert, and never asks for a reload that cannot help. Pass `strings={{ … }}` to
 * `<ErrorDetails>` (or `<SupportPanel>`) to replace any of them.
 */
export const CONNECTIVITY_STRINGS = {
  /** Offline, where writes wait in the outbox (the support inbox): they go when the link is back. */
  offline: 'You are offline; your changes will be sent when the connection is back.',
  /** Online, but the token endpoint does not answer (a 5xx, a timeout): the same wait, another cause. */
  unreachable: "The server can't be reached right now; your changes are kept and will be sent when it answers.",
  /** Offline, for a question that is not kept (a maps search): asked again by the person. */
  offlineRetry: 'You are offline; try again when the connection is back.',
  unreachableRetry: "The server can't be reached right now; try again in a moment.",
}

export type ConnectivityStrings = typeof CONNECTIVITY_STRINGS

/** The services whose writes wait on the device (the outbox) instead of failing. */
const WRITES_WAIT = new Set(['support'])

/**
 * `offline` or `unreachable` when the error is the connection's: the token endpoint out of reach
 * (`token_endpoint_unavailable`: offline, or its server down), or a request that could not be sent
 * while the browser is offline. Anything else: undefined (the error's own sentence applies).
 */
export function connectivityOf(error: unknown, online: boolean): 'offline' | 'unreachable' | undefined {
  if (!isTandemError(error)) return undefined
  if (error.code === 'token_endpoint_unavailable') return online ? 'unreachable' : 'offline'
  if (!online && (error.code === 'network_error' || error.code === 'timeout')) return 'offline'
  return undefined
}

/** The sentence for `kind`, for a panel of `service` (its writes wait, or its questions are asked again). */
export function connectivitySentence(
  kind: 'offline' | 'unreachable',
  service: string,
  strings: ConnectivityStrings = CONNECTIVITY_STRINGS,
): string {
  if (WRITES_WAIT.has(service)) return kind === 'offline' ? strings.offline : strings.unreachable
  return kind === 'offline' ? strings.offlineRetry : strings.unreachableRetry
}
