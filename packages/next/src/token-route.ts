import { createTokenHandler, type TokenHandlerOptions } from '@tandem/server'

/** A route handler of the App Router, and any Web-standard runtime's `Request → Response`. */
export type TokenRouteHandler = (request: Request) => Promise<Response>

export interface TokenRoute {
  GET: TokenRouteHandler
  POST: TokenRouteHandler
}

/**
 * The token endpoint as App Router route handlers, on `createTokenHandler` of `@tandem/server`:
 * `{ token, expiresIn }` for a user `authorize` accepts, 401 or 403 otherwise, 405 for other methods.
 *
 * @example
 * ```ts
 * // app/api/tandem-token/route.ts
 * export const { GET, POST } = tokenRoute({ appId, keyId, secret, authorize })
 * ```
 */
export function tokenRoute(options: TokenHandlerOptions): TokenRoute {
  const handler = createTokenHandler(options)
  return { GET: handler, POST: handler }
}
