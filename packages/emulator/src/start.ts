// startEmulator: createEmulator on its own node:http server.
import { createServer } from 'node:http'
import type { Socket } from 'node:net'
import { DEFAULTS } from './defaults.js'
import { createEmulatorWithState } from './emulator.js'
import type { Emulator, EmulatorOptions } from './types.js'

/**
 * @example
 * ```ts
 * const emu = await startEmulator({ port: 0 })
 * const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` } })
 * await emu.close()
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const { core, state } = createEmulatorWithState(options)
  const port = options.port ?? DEFAULTS.port
  const host = options.host ?? DEFAULTS.host
  if (!(Number.isInteger(port) && port >= 0 && port <= 65535))
    throw new RangeError('port must be an integer from 0 to 65535')

  const server = createServer((req, res) => core.handle(req, res))
  server.requestTimeout = DEFAULTS.requestTimeoutMs
  server.on('clientError', onClientError)
  core.attach(server)

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address()
  const boundPort = typeof address === 'object' && address ? address.port : port
  const urlHost = host.includes(':') ? `[${host}]` : host

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      state.sleeper.wakeAll()
      for (const module of Object.values(state.modules)) module.close?.()
      state.webhooks.close()
      server.close(() => resolve())
      // Keep-alive and in-flight sockets would otherwise hold close() open for seconds.
      server.closeAllConnections()
    })
    return closing
  }

  return Object.assign(core, { url: `http://${urlHost}:${boundPort}`, port: boundPort, server, close })
}

/** Malformed HTTP never reaches a handler; answer it in the same JSON shape and hang up. */
function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  const code = status === 431 ? 'headers_too_large' : status === 408 ? 'request_timeout' : 'bad_request'
  const body = JSON.stringify({ error: { code, message: 'The request could not be parsed.', status } })
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
