import { WS_PATH } from './defaults.js'

/** The realtime service base URL (`https://…/realtime`) as its WebSocket endpoint (`wss://…/realtime/v1/ws`). */
export function toWsUrl(base: string): string {
  const url = base.replace(/\/+$/, '').replace(/^http/i, 'ws')
  return /\/ws$/.test(url) ? url : url + WS_PATH
}
