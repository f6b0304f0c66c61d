import { createClient, type TandemClient } from '@tandem/core'
import { createRealtime, type Realtime } from '@tandem/realtime'
import type { FunctionComponent } from 'react'
import { DEV_APP, type Emulator } from '@tandem/emulator'
import { signWebhook } from '@tandem/server'

// What a `fragment` block of the docs may use without declaring it: the page's client, a few
// ids, and the app's own functions a snippet calls (rendering, notifying). Executed blocks get
// live values: a client on the emulator, its dev app's credentials, and functions that record.

export interface DocsContext {
  /** The client of the page (`createClient` with every service), on the emulator when run. */
  tandem: TandemClient
  client: TandemClient
  /** `createRealtime({ client })`. */
  rt: Realtime
  signal: AbortSignal
  /** A mailbox of the app (the first one the service lists). */
  mailboxId: string
  /** Your backend's credentials (environment variables in a real app). */
  appId: string
  keyId: string
  secret: string
  oldSecret: string
  /** A webhook delivery as your route received it. */
  rawBody: string
  request: Request
  // The app's own code.
  render: (data: unknown) => void
  refetchChat: () => void
  showBanner: (text: string) => void
  yourSession: (request: Request) => Promise<{ id: string } | null>
  notifyAgents: (data: unknown) => Promise<void>
  index: (data: unknown) => Promise<void>
  /** Your React app, the element it renders into, and the cache state your server embedded in the page. */
  App: FunctionComponent
  root: Element
  embeddedState: string
  /** The emulator the page started (`startEmulator`). */
  emu: Emulator
}

/** Live values for executed blocks; `calls` records what the app's functions were given. */
export async function createDocsContext(emu: Emulator): Promise<{ ctx: DocsContext; calls: unknown[][] }> {
  const baseUrl = emu.url
  const calls: unknown[][] = []
  const record =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, ...args])
    }
  const tandem = createClient({ baseUrl, auth: { url: `${baseUrl}/dev/token` } })
  const { data: mailboxes } = await tandem.support.mailboxes.list()
  const key = DEV_APP.keys[0]!
  const rawBody = JSON.stringify({ id: 'evt_docs', type: 'channel.occupied', createdAt: new Date().toISOString() })
  const header = await signWebhook(rawBody, 'whsec_docs')
  return {
    calls,
    ctx: {
      tandem,
      client: tandem,
      rt: createRealtime({ client: tandem }),
      signal: new AbortController().signal,
      mailboxId: mailboxes[0]!.id,
      appId: DEV_APP.appId,
      keyId: key.id,
      secret: key.secret,
      oldSecret: 'an_old_secret_still_accepted',
      rawBody,
      request: new Request(`${baseUrl}/webhooks`, {
        method: 'POST',
        body: rawBody,
        headers: { 'tandem-signature': header },
      }),
      render: record('render'),
      refetchChat: record('refetchChat'),
      showBanner: record('showBanner'),
      yourSession: async () => ({ id: 'user_42' }),
      notifyAgents: async (data) => void calls.push(['notifyAgents', data]),
      index: async (data) => void calls.push(['index', data]),
      App: () => null,
      root: null as unknown as Element, // no DOM here: the blocks that render are not run
      embeddedState: JSON.stringify(tandem.cache.dehydrate()),
      emu,
    },
  }
}
