/**
 * The paths the service worker never answers from its cache: the token endpoint and the dev
 * controls (`/api/`), the services' REST APIs, the realtime socket and the emulator's dev routes.
 * Their answers are data, and the SDK keeps the offline copy of that (its saved cache).
 */
export const NETWORK_ONLY: readonly RegExp[] = [
  /^\/api\//,
  /^\/support\//,
  /^\/maps\//,
  /^\/realtime\//,
  /^\/docs\//,
  /^\/dev\//,
]

/**
 * Navigations that must not get the app's page in place of what they ask for: the paths above,
 * and a file the build does not hold (`/openapi.json`, the contract the header links to). Matched
 * against the path and the query, as Workbox's NavigationRoute does.
 */
export const NOT_A_PAGE: readonly RegExp[] = [...NETWORK_ONLY, /^[^?]*\/[^/?]+\.[a-z0-9]+(?:\?|$)/i]
