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
  // Made on the first request, not here: `next build` evaluates route modules, where the key (a
  // runtime secret) is often absent. A missing or malformed key then fails each token request
  // with createTokenHandler's TypeError (a 500, in the server's log) instead of the build.
  let handler: TokenRouteHandler | undefined
  const handle: TokenRouteHandler = async (request) => (handler ??= createTokenHandler(options))(request)
  return { GET: handle, POST: handle }
}
