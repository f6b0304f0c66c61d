// A tiny table-driven router: `:name` segments capture one URL-decoded path segment.
import { HttpError } from './http-errors.js'

export interface Route<H> {
  method: string
  pattern: string
  handler: H
}

export interface RouteMatch<H> {
  route: Route<H>
  params: Record<string, string>
}

export class Router<H> {
  private readonly compiled: { route: Route<H>; segments: string[] }[]

  constructor(routes: Route<H>[]) {
    this.compiled = routes.map((route) => ({ route, segments: route.pattern.split('/') }))
  }

  /** The matching route, or a 404 / 405 HttpError (405 carries `Allow`). */
  match(method: string, path: string): RouteMatch<H> | HttpError {
    const parts = path.split('/')
    const allowed: string[] = []
    // HEAD is GET without a body; Node drops the body for us.
    const wanted = method === 'HEAD' ? 'GET' : method
    for (const { route, segments } of this.compiled) {
      const params = matchSegments(segments, parts)
      if (!params) continue
      // A route of its own for HEAD (tus) wins; else HEAD is the GET.
      if (route.method === method || route.method === wanted) return { route, params }
      allowed.push(route.method)
    }
    if (allowed.length === 0) return new HttpError(404, 'not_found', 'No such endpoint.')
    const allow = [...new Set([...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'])].join(', ')
    return new HttpError(
      405,
      'method_not_allowed',
      `Method ${method} is not allowed here. Allowed: ${allow}.`,
      undefined,
      { Allow: allow },
    )
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < pattern.length; i++) {
    const want = pattern[i] ?? ''
    const got = parts[i] ?? ''
    if (want.startsWith(':')) {
      if (got === '') return undefined
      let value: string
      try {
        value = decodeURIComponent(got)
      } catch {
        return undefined // bad percent-encoding: no such resource
      }
      params[want.slice(1)] = value
    } else if (want !== got) {
      return undefined
    }
  }
  return params
}
