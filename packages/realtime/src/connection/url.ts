import { parseBaseUrl } from '../core.js'
import { WS_PATH } from '../defaults.js'

/**
 * The realtime service base URL (`https://…/realtime`) as its WebSocket endpoint
 * (`wss://…/realtime/v1/ws`), joined by `URL`: a query stays on the upgrade request, after the
 * path. A credential in it (`?key=`, `?token=`…), `user:password@` or a fragment is a
 * `ValidationError` (core's `parseBaseUrl`, the rules of every URL option).
 */
export function toWsUrl(base: string, field = 'url'): string {
  const url = parseBaseUrl(base, field)
  url.protocol = url.protocol.replace(/^http/i, 'ws')
  if (!/\/ws$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}${WS_PATH}`
  return url.href
}
