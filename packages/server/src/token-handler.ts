import { errorResponse, jsonResponse } from './json-response.js'
import { mintToken } from './mint-token.js'
import { assertNonEmptyString, resolveTtl, type TokenProfile } from './validate.js'

/**
 * What the app's own auth decided: a user, their capabilities and (optionally) their profile,
 * an explicit refusal, or null/false for "not signed in" (401).
 */
export type AuthorizeResult =
  { subject: string; scope: string[]; profile?: TokenProfile } | { refuse: 401 | 403; message?: string } | null | false

export interface TokenHandlerOptions {
  appId: string
  keyId: string
  secret: string
  /**
   * Lifetime of the tokens it mints, in seconds (60 to 86 400).
   * @default 600
   */
  ttlSeconds?: number
  /** The app's own user auth, run on every token request. */
  authorize: (request: Request) => AuthorizeResult | Promise<AuthorizeResult>
}

const ALLOW = 'GET, POST, OPTIONS'

/**
 * A fetch-style token endpoint: `(Request) => Promise<Response>`, mountable in any runtime
 * (and on node:http through `toNodeListener`). Answers `{ token, expiresIn }`.
 *
 * @example
 * ```ts
 * export const POST = createTokenHandler({
 *   appId, keyId, secret,
 *   authorize: async (request) => ((await session(request)) ? { subject: 'user_42', scope: ['maps'] } : null),
 * })
 *
 * // A support customer: the subject is the customer id (a CUSTOMER_ID), the profile what agents see.
 * export const customerToken = createTokenHandler({
 *   appId, keyId, secret,
 *   authorize: async (req) => {
 *     const customer = await customerOf(req)
 *     if (!customer) return null
 *     const { name, email } = customer
 *     return { subject: customer.id, scope: ['support:customer'], profile: { name, email } }
 *   },
 * })
 * ```
 */
export function createTokenHandler(options: TokenHandlerOptions): (request: Request) => Promise<Response> {
  // Fail at startup, not on the first user's request.
  const { appId, keyId, secret, authorize } = options
  assertNonEmptyString(appId, 'appId')
  assertNonEmptyString(keyId, 'keyId')
  assertNonEmptyString(secret, 'secret')
  const ttlSeconds = resolveTtl(options.ttlSeconds)
  if (typeof authorize !== 'function') throw new TypeError('authorize must be a function')

  return async (request) => {
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: ALLOW } })
    if (request.method !== 'GET' && request.method !== 'POST') {
      return errorResponse(405, 'method_not_allowed', 'Use GET or POST.', { Allow: ALLOW })
    }
    try {
      const result: unknown = await authorize(request)
      if (result === null || result === false || result === undefined) {
        return errorResponse(401, 'unauthorized', 'Authentication required.')
      }
      if (typeof result === 'object' && 'refuse' in result) {
        const { refuse, message } = result as { refuse: unknown; message?: unknown }
        const text = typeof message === 'string' ? message : undefined
        if (refuse === 401) return errorResponse(401, 'unauthorized', text ?? 'Authentication required.')
        if (refuse === 403) return errorResponse(403, 'forbidden', text ?? 'Not allowed to get a token.')
        // Any other value is a bug in authorize: fall through to the generic 500.
        throw new TypeError('invalid refuse status')
      }
      const { subject, scope, profile } = result as { subject: string; scope: string[]; profile?: TokenProfile }
      // A malformed subject/scope/profile from authorize rejects here and becomes a 500 below.
      const { token, expiresIn } = await mintToken({ appId, keyId, secret, subject, scope, profile, ttlSeconds })
      return jsonResponse(200, { token, expiresIn })
    } catch {
      // Fixed message: whatever was thrown may quote a secret, a session or a database URL.
      return errorResponse(500, 'internal_error', 'The token endpoint failed.')
    }
  }
}
