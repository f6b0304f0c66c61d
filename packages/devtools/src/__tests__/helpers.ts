// Shared test helpers: a real emulator on 127.0.0.1, a client and a realtime connection on it
// (`ws`), the devtools element mounted on the page, and the cleanup setup.ts runs after each test.
import { createClient, getCache, type Client, type ClientOptions, type RequestEvent } from '@tandem/core'
import { startEmulator, type Emulator, type EmulatorOptions } from '@tandem/emulator'
import { createRealtime, type Realtime, type RealtimeOptions } from '@tandem/realtime'
import WebSocket from 'ws'
import { until } from '../../../../test/utils/wait.js'
import { goOnline } from '../offline.js'
import { mountDevtools } from '../production.js'
import type { TandemDevtoolsElement } from '../element.js'
import type { DevtoolsOptions } from '../types.js'

const open: (() => unknown)[] = []
/** Closes what the helpers opened, newest first; after each test (setup.ts). */
export async function cleanupAll(): Promise<void> {
  goOnline()
  for (const close of open.splice(0).reverse()) await close()
}

export interface Setup {
  emu: Emulator
  client: Client
  realtime: Realtime
  /** Requests as the client saw them. */
  requests: RequestEvent[]
  /** Every token the client was given (the tests look for them where they must not be). */
  tokens: string[]
}

export async function setup(
  o: {
    emulator?: EmulatorOptions
    client?: Partial<ClientOptions>
    realtime?: RealtimeOptions
    /** Seconds the client believes its tokens live: 2 makes the realtime refresh in band within ~1 s. */
    expiresIn?: number
  } = {},
): Promise<Setup> {
  const emu = await startEmulator({ host: '127.0.0.1', port: 0, ...o.emulator })
  open.push(() => emu.close())
  const tokens: string[] = []
  const client = createClient({
    baseUrl: emu.url,
    auth: {
      fetchToken: async () => {
        const token = await emu.mintToken({ subject: 'dev-user', scope: ['maps', 'support', 'realtime'] })
        tokens.push(token)
        return { token, expiresIn: o.expiresIn ?? 600 }
      },
    },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...o.client,
  })
  const realtime = createRealtime({ client }, { WebSocket, backoff: { baseMs: 20, capMs: 100 }, ...o.realtime })
  open.push(
    () => realtime.close(),
    () => getCache(client).clear(),
  )
  const requests: RequestEvent[] = []
  client.on('request', (e) => void requests.push(e))
  return { emu, client, realtime, requests, tokens }
}

/** `<tandem-devtools>` on the page for these sources; removed after the test. */
export function mount(options: DevtoolsOptions): TandemDevtoolsElement {
  const unmount = mountDevtools(options)
  open.push(unmount)
  const el = document.body.lastElementChild
  if (el?.localName !== 'tandem-devtools') throw new Error('mountDevtools appended nothing')
  return el as TandemDevtoolsElement
}

/** Opens the panel and returns its shadow root. */
export async function openPanel(el: TandemDevtoolsElement): Promise<ShadowRoot> {
  await el.open()
  const root = el.shadowRoot
  if (!root?.querySelector('[role=dialog]')) throw new Error('the panel did not open')
  return root
}

/** The tab of that name, and the panel it controls. */
export function tab(root: ShadowRoot, name: string): { tab: HTMLElement; panel: HTMLElement } {
  const tab = [...root.querySelectorAll<HTMLElement>('[role=tab]')].find((t) => t.textContent === name)
  if (!tab) throw new Error(`no tab ${name}`)
  const panel = root.getElementById(tab.getAttribute('aria-controls') ?? '')
  if (!panel) throw new Error(`tab ${name} controls nothing`)
  return { tab, panel }
}

/** Waits until `check` holds, re-checked whenever the recorder says something changed. */
export const untilRecorded = (el: TandemDevtoolsElement, check: () => boolean, what: string, timeoutMs = 5_000) =>
  until((cb) => el.recorder!.subscribe(cb), check, timeoutMs, what)

/** Every text and attribute value under `root` (shadow roots included): what a page could read. */
export function everythingIn(root: Node): string {
  const out: string[] = []
  const walk = (node: Node) => {
    if (node.nodeType === 3) out.push(node.textContent ?? '')
    if (node instanceof Element) {
      for (const attr of node.attributes) out.push(attr.value)
      if (node.shadowRoot) walk(node.shadowRoot)
    }
    for (const child of node.childNodes) walk(child)
  }
  walk(root)
  return out.join('\n')
}
