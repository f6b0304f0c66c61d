// The emulator's own public URL (option `publicUrl`; else the address of the server it was
// attached to): what download links in live frames and webhooks are minted under, which no
// request's Host may choose. A REST answer may use its request's Host (service-pipeline.ts).
import type { Server } from 'node:http'

export interface PublicUrl {
  /** `scheme://host[:port]`, no path. */
  get(): string
  /** The server the emulator answers on (its address, once listening, is the default). */
  listen(server: Server): void
}

export function createPublicUrl(option?: string): PublicUrl {
  const given = option === undefined ? undefined : originOf(option)
  let server: Server | undefined
  return {
    get() {
      if (given) return given
      const address = server?.address()
      if (!address || typeof address !== 'object') return 'http://127.0.0.1'
      // Listening on every interface: this machine's loopback reaches it.
      const host = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.address
      return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
    },
    listen(s) {
      server ??= s
    },
  }
}

function originOf(value: string): string {
  let url: URL | undefined
  try {
    url = new URL(value)
  } catch {
    url = undefined
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.username || url.password)
    throw new TypeError('publicUrl must be an http(s) URL such as "http://localhost:5173"')
  return url.origin
}
