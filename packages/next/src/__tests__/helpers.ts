// Shared test helpers: a real emulator on 127.0.0.1, a server client that mints its tokens with the
// emulator's dev key, a browser-side client with its requests counted, and the cleanup setup.ts runs.
import { createClient, type RequestEvent, type TandemClient } from '@tandem/core'
import { DEV_APP, startEmulator, type Emulator } from '@tandem/emulator'
import { cleanup } from '@testing-library/react'
import { createServerClient } from '../server.js'

const open: (() => unknown)[] = []
/** Unmounts, then closes what the helpers opened, newest first; after each test (setup.ts). */
export async function cleanupAll(): Promise<void> {
  cleanup()
  for (const close of open.splice(0).reverse()) await close()
}

/** The emulator's own key: what an app's server holds in its environment. */
export const MINT = { appId: DEV_APP.appId, keyId: DEV_APP.keys[0]!.id, secret: DEV_APP.keys[0]!.secret }
export const AGENT = { subject: 'agent_ada', scope: ['support', 'realtime'] }

export interface Setup {
  emu: Emulator
  /** One request's server client (`createServerClient`), its requests counted. */
  server: TandemClient
  serverRequests: RequestEvent[]
}

export async function setup(): Promise<Setup> {
  const emu = await startEmulator({ host: '127.0.0.1', port: 0 })
  const server = createServerClient({ baseUrl: emu.url, mint: MINT, ...AGENT, retry: false })
  open.push(
    () => emu.close(),
    () => server.cache.clear(),
  )
  const serverRequests: RequestEvent[] = []
  server.on('request', (e) => void serverRequests.push(e))
  return { emu, server, serverRequests }
}

/** A browser's client on the emulator (its dev token route), its requests counted. */
export function browserClient(emu: Emulator): { client: TandemClient; requests: RequestEvent[] } {
  const client = createClient({ baseUrl: emu.url, auth: { url: `${emu.url}/dev/token` }, retry: false })
  open.push(() => client.cache.clear())
  const requests: RequestEvent[] = []
  client.on('request', (e) => void requests.push(e))
  return { client, requests }
}

/** Runs `close` with the rest of the cleanup, after the test. */
export const onCleanup = (close: () => unknown) => void open.push(close)
