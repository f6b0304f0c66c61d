import { isCredentialParam } from '@tandem/contract'
import { DEV } from '@tandem/contract/dev'
import { ValidationError } from './errors.js'

// The URL options (base URLs, the token endpoint, the realtime URL) are checked once, when the
// client is made: a credential in one is refused before anything is sent, and a base URL is
// joined with its paths by `URL`, so that its query (or fragment) can never swallow a path.

const page = () => (globalThis as { location?: { href?: string } }).location?.href

/**
 * Refuses a URL that carries a credential: a query (or fragment) parameter named in the
 * contract's `CREDENTIAL_PARAMS` (`key`, `api_key`, `secret`, `token`, …), or `user:password@`.
 * The message names the parameter, never its value.
 */
export function refuseCredentials(url: URL, field: string): void {
  const names = [...url.searchParams.keys(), ...new URLSearchParams(url.hash.slice(1)).keys()]
  const found = names.find(isCredentialParam) ?? (url.username || url.password ? 'user:password@' : undefined)
  // Only the name: the value is the secret.
  if (found)
    throw new ValidationError(
      field,
      DEV &&
        process.env.NODE_ENV !== 'production' &&
        `must not carry a credential (${found}): keys stay on your server`,
      found,
    )
}

/**
 * A service's base URL, parsed: absolute (or relative to the page, in a browser), no credential,
 * no fragment (it is never sent: `#` in a base URL is a mistake), trailing slashes dropped. Its
 * query is kept: it goes with every request (see `splitBaseUrl`).
 */
export function parseBaseUrl(url: unknown, field: string): URL {
  let parsed: URL | undefined
  try {
    if (typeof url === 'string' && url) parsed = new URL(url, page())
  } catch {
    // refused below
  }
  if (!parsed)
    throw new ValidationError(field, DEV && process.env.NODE_ENV !== 'production' && 'must be an absolute URL')
  refuseCredentials(parsed, field)
  if ((url as string).includes('#'))
    throw new ValidationError(field, DEV && process.env.NODE_ENV !== 'production' && 'must not have a fragment (#)')
  parsed.pathname = parsed.pathname.replace(/\/+$/, '')
  return parsed
}

/** The URL as `client.baseUrls` shows it: no trailing slash after the path, the query kept. */
export const formatBaseUrl = (url: URL): string =>
  `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`

/** `path` under the base URL's path, its query kept (`https://h/api?t=1` + `maps` → `https://h/api/maps?t=1`). */
export function joinPath(base: URL, path: string): URL {
  const url = new URL(base.href)
  url.pathname = `${base.pathname.replace(/\/+$/, '')}/${path}`
  return url
}

/**
 * A base URL as the pipeline sends it: the part requests' paths are appended to, and its query
 * as parameters merged into every request's (the request's own value wins a name both have).
 */
export function splitBaseUrl(url: string): { base: string; query: Record<string, string[]> | undefined } {
  const parsed = new URL(url, page())
  // Keyed by the URL's own names: no prototype (`constructor` and `__proto__` are parameters too).
  const query = Object.create(null) as Record<string, string[]>
  for (const [name, value] of parsed.searchParams) (query[name] ??= []).push(value)
  const { search } = parsed
  parsed.search = ''
  return { base: formatBaseUrl(parsed), query: search ? query : undefined }
}
