/**
 * What an interceptor sees: ofetch's hook context, typed here rather than re-exported. ofetch's
 * own declarations import `undici`, which it does not depend on, so a consumer type-checking
 * with `skipLibCheck: false` would fail on them; Tandem's public types never reach ofetch's.
 */
export interface HookContext {
  /** The path as sent to ofetch (joined with `options.baseURL`), or a Request. */
  request: string | Request
  options: {
    method?: string
    baseURL?: string
    /** Mutable: an `onRequest` hook may add headers. The pipeline's `authorization` wins. */
    headers: Headers
    query?: Record<string, unknown>
    body?: unknown
    signal?: AbortSignal
  }
  /** Set for `onResponse` and `onResponseError`; `_data` is the parsed body. */
  response?: Response & { _data?: unknown }
  /** Set for `onRequestError`. */
  error?: Error
}

/** One interceptor; `C` is the context it is given (with `response` or `error` set where they always are). */
export type Hook<C extends HookContext = HookContext> = (context: C) => void | Promise<void>

type With<K extends 'response' | 'error'> = HookContext & Required<Pick<HookContext, K>>

/**
 * Interceptors, as ofetch's hooks (a unjs or Nuxt user knows them): they run on every attempt,
 * with ofetch's context. A hook that throws fails the call with a `TandemError` `hook_failed`.
 */
export interface ClientHooks {
  onRequest?: Hook | Hook[]
  onRequestError?: Hook<With<'error'>> | Hook<With<'error'>>[]
  onResponse?: Hook<With<'response'>> | Hook<With<'response'>>[]
  onResponseError?: Hook<With<'response'>> | Hook<With<'response'>>[]
}

/** The hook names, in ofetch's order. */
export const HOOK_NAMES = ['onRequest', 'onRequestError', 'onResponse', 'onResponseError'] as const
