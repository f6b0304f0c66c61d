import { getCache, listQuery } from '@tandem/core'
import { durableOutbox, memoryStorage, persistCache } from '@tandem/core/persist'
import { LauncherElement } from '@tandem/elements'
import { describe, expect, it } from 'vitest'
import { poll, waitUntil } from '../../../../test/utils/wait.js'
import { TandemDevtoolsElement } from '../element.js'
import { everythingIn, mount, openPanel, setup, tab, type Setup } from './helpers.js'

// <tandem-devtools> in happy-dom against the emulator: the launcher, the dialog and its tabs from
// the keyboard, and each tab showing what the sources say.

const key = (el: Element, k: string) =>
  el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, composed: true }))

describe('<tandem-devtools>', () => {
  it('opens from its launcher, its tabs follow the ARIA tabs pattern, Escape closes and gives focus back', async () => {
    const s = await setup()
    const el = mount({ client: s.client, realtime: s.realtime })
    const root = el.shadowRoot!
    const launcher = root.querySelector('button')!
    expect(launcher.textContent).toBe('Open Tandem devtools') // its accessible name (the icon is aria-hidden)
    expect(launcher.getAttribute('aria-expanded')).toBe('false')
    launcher.focus()
    launcher.click() // what Enter or Space on a focused button does
    await poll(() => el.isOpen && root.querySelector('[role=dialog]') !== null, 'the panel')

    const dialog = root.querySelector('[role=dialog]')!
    expect(dialog.getAttribute('aria-modal')).toBe('false')
    expect(root.getElementById(dialog.getAttribute('aria-labelledby')!)!.textContent).toBe('Tandem devtools')
    expect(launcher.getAttribute('aria-expanded')).toBe('true')
    const tabs = [...root.querySelectorAll<HTMLElement>('[role=tab]')]
    expect(tabs.map((t) => t.textContent)).toEqual(['Requests', 'Cache', 'Connection', 'Channels', 'Rate limits'])
    expect(root.querySelector('[role=tablist]')!.getAttribute('aria-label')).toBe('Sections')
    const selected = () => tabs.filter((t) => t.getAttribute('aria-selected') === 'true').map((t) => t.textContent)
    const state = () => ({
      selected: selected(),
      focused: root.activeElement?.textContent,
      tabbable: tabs.filter((t) => t.tabIndex === 0).map((t) => t.textContent),
      shown: [...root.querySelectorAll('[role=tabpanel]')].filter((p) => !p.hasAttribute('hidden')).map((p) => p.id),
    })
    expect(state()).toEqual({
      selected: ['Requests'],
      focused: 'Requests',
      tabbable: ['Requests'],
      shown: ['tabpanel-requests'],
    })
    for (const t of tabs) {
      const panel = root.getElementById(t.getAttribute('aria-controls')!)!
      expect(panel.getAttribute('role')).toBe('tabpanel')
      expect(panel.getAttribute('aria-labelledby')).toBe(t.id)
    }

    key(root.activeElement!, 'ArrowRight')
    expect(state()).toEqual({ selected: ['Cache'], focused: 'Cache', tabbable: ['Cache'], shown: ['tabpanel-cache'] })
    key(root.activeElement!, 'End')
    expect(state()).toMatchObject({ selected: ['Rate limits'], focused: 'Rate limits' })
    key(root.activeElement!, 'ArrowRight') // wraps
    expect(state()).toMatchObject({ selected: ['Requests'], focused: 'Requests' })
    key(root.activeElement!, 'ArrowLeft')
    expect(state()).toMatchObject({ selected: ['Rate limits'], focused: 'Rate limits' })
    key(root.activeElement!, 'Home')
    expect(state()).toMatchObject({ selected: ['Requests'], focused: 'Requests', shown: ['tabpanel-requests'] })

    key(root.activeElement!, 'Escape')
    expect(el.isOpen).toBe(false)
    expect(dialog.hasAttribute('hidden')).toBe(true)
    expect(root.activeElement).toBe(launcher)
    expect(launcher.getAttribute('aria-expanded')).toBe('false')
  })

  it('shows calls made before it opened, each with its request id; every string can be replaced', async () => {
    const s = await setup()
    const el = mount({ client: s.client, strings: { requestId: 'id', requestsTab: 'Calls' } })
    s.emu.faults.failNext(1, { service: 'maps', status: 503 })
    await s.client.request({ service: 'maps', method: 'GET', path: '/v1/resources' })
    const root = await openPanel(el)
    const { panel } = tab(root, 'Calls')
    const requestId = s.requests.at(-1)!.requestId!
    await poll(() => panel.textContent!.includes(`id ${requestId}`), 'the row with its request id')
    const text = everythingIn(panel)
    expect(text).toContain('/maps/v1/resources')
    expect(text).toContain('2 attempts')
    expect(text).toMatch(/attempt 1: 503 in \d+ ms; retried \(\S+\) after \d+ ms/)

    el.strings = { requestsTab: 'Requêtes' }
    expect(tab(root, 'Requêtes').tab.getAttribute('aria-selected')).toBe('true')
    expect(panel.textContent).toContain(`request id ${requestId}`)
  })

  it('Cache: each entry with its state; Invalidate refetches it, Remove drops an unwatched one', async () => {
    const s = await setup()
    const cache = getCache(s.client)
    const query = listQuery('maps/resources', { limit: 2 })
    const off = cache.watch(query, () => {})
    await waitUntil(() => cache.inspect()[0]?.status === 'success', { what: 'the list loaded' })
    const el = mount({ client: s.client, realtime: s.realtime })
    const root = await openPanel(el)
    const { tab: cacheTab, panel } = tab(root, 'Cache')
    cacheTab.click()
    const [info] = cache.inspect()
    await poll(() => panel.textContent!.includes(info!.hash), 'the entry')
    expect(panel.textContent).toMatch(/success · (fresh|stale) · 1 observer/)

    const gets = () => s.requests.filter((r) => r.path === '/v1/resources').length
    const before = gets()
    const invalidate = [...panel.querySelectorAll('button')].find(
      (b) => b.getAttribute('aria-label') === `Invalidate ${info!.hash}`,
    )!
    invalidate.click()
    await poll(() => gets() === before + 1, 'the refetch')

    off()
    await poll(() => cache.inspect()[0]?.observers === 0, 'no observer')
    const remove = [...panel.querySelectorAll('button')].find(
      (b) => b.getAttribute('aria-label') === `Remove ${info!.hash}`,
    )!
    remove.click()
    expect(cache.inspect()).toEqual([])
    await poll(() => panel.textContent!.includes('The cache is empty.'), 'the empty cache')
  })

  it('Connection: the timeline shows a drop (the action) and the reconnect, then the frames', async () => {
    const s = await setup()
    const el = mount({
      client: s.client,
      realtime: s.realtime,
      actions: {
        dropConnection: async () => `dropped ${s.emu.realtime.dropConnections({ raw: true })}`,
      },
    })
    s.realtime.connect()
    await waitUntil(() => s.realtime.state === 'connected', { what: 'connected' })
    const root = await openPanel(el)
    const { tab: connection, panel } = tab(root, 'Connection')
    connection.click()
    expect(panel.textContent).toContain(s.realtime.connectionId!)
    const drop = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Drop connection')!
    drop.click()
    const status = root.querySelector('[role=status]')!
    await poll(() => status.textContent === 'dropped 1', 'the action said what it did')
    await poll(() => /connected → reconnecting · \w+/.test(panel.textContent!), 'the drop in the timeline')
    await poll(() => /reconnecting → connected/.test(panel.textContent!), 'connected again')
    const frames = [...panel.querySelectorAll('details summary')].map((d) => d.textContent)
    expect(frames.at(-1)).toMatch(/^↑ out · connect · \d+ chars/)
    expect(panel.querySelector('details pre')!.textContent).toMatch(/^\{/)
  })

  it('Go offline makes the page offline to the SDK (the connection waits), Back online undoes it', async () => {
    const s = await setup()
    const el = mount({ client: s.client, realtime: s.realtime })
    s.realtime.connect()
    await waitUntil(() => s.realtime.state === 'connected', { what: 'connected' })
    const reasons: (string | undefined)[] = []
    s.realtime.on('state', (c) => void reasons.push(c.reason))
    const root = await openPanel(el)
    const toggle = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Go offline')!
    toggle.click()
    expect(navigator.onLine).toBe(false)
    await waitUntil(() => s.realtime.state === 'disconnected', { what: 'disconnected' })
    expect(reasons).toContain('offline')
    expect(toggle.textContent).toBe('Back online')
    toggle.click()
    expect(navigator.onLine).toBe(true)
    await waitUntil(() => s.realtime.state === 'connected', { what: 'connected again' })
    expect(toggle.textContent).toBe('Go offline')
  })

  it('Channels: state, offset and epoch, subscribers, presence; Rate limits: each service', async () => {
    const s = await setup()
    const el = mount({ client: s.client, realtime: s.realtime })
    const channel = s.realtime.channel('devtools:room')
    const off = channel.subscribe(() => {})
    await channel.publish('hello', {})
    const root = await openPanel(el)
    const { tab: channels, panel } = tab(root, 'Channels')
    channels.click()
    await poll(() => /devtools:room subscribed/.test(panel.textContent!), 'the channel')
    expect(panel.textContent).toMatch(/offset \d+, epoch \S+ · 1 subscriber/)
    expect(panel.textContent).toContain('Not shared across tabs')
    const limits = tab(root, 'Rate limits')
    limits.tab.click()
    expect(limits.panel.textContent).toContain('maps: nothing waits')
    off()
  })

  it("Rate limits: a customer's client names its own quota once the service does", async () => {
    const customer = async () => ({
      token: await s.emu.mintToken({ subject: 'cus_1', scope: ['support:customer'] }),
      expiresIn: 600,
    })
    const s: Setup = await setup({ client: { auth: { fetchToken: customer } } })
    const root = await openPanel(mount({ client: s.client }))
    const limits = tab(root, 'Rate limits')
    limits.tab.click()
    expect(limits.panel.textContent).toContain('support: nothing waits')
    await s.client.request({ service: 'support', method: 'GET', path: '/v1/me' })
    await poll(() => limits.panel.textContent!.includes('support (customer quota): nothing waits'), 'the bucket named')
  })

  it('shows Outbox and Saved cache only when given', async () => {
    const s = await setup()
    const storage = memoryStorage()
    const outbox = durableOutbox({ key: 'devtools-test', storage })
    const persister = persistCache(s.client, { key: 'devtools-test', storage })
    await persister.restored
    const el = mount({ client: s.client, outbox, persister })
    const root = await openPanel(el)
    expect([...root.querySelectorAll('[role=tab]')].map((t) => t.textContent).slice(-2)).toEqual([
      'Outbox',
      'Saved cache',
    ])
    const box = tab(root, 'Outbox')
    box.tab.click()
    expect(box.panel.textContent).toContain('idle (storage)')
    expect(box.panel.textContent).toContain('Nothing is waiting.')
    const saved = tab(root, 'Saved cache')
    saved.tab.click()
    expect(saved.panel.textContent).toMatch(/restored \(storage\)restore: empty, 0 entries/)
    outbox.stop()
    persister.stop()
  })

  it('is built on the launcher base it shares with <tandem-messenger>', async () => {
    const s = await setup()
    expect(Object.getPrototypeOf(TandemDevtoolsElement)).toBe(LauncherElement)
    expect(mount({ client: s.client })).toBeInstanceOf(LauncherElement)
  })
})
