// The panel: a non-modal dialog (like the messenger, it sits beside the page, which stays usable:
// no focus trap) with a header (title, actions, close), a polite status line, and tabs (tabs.ts):
// Requests, Cache, Connection, Channels, Rate limits, and Outbox / Saved cache when given.
// Focus moves to the selected tab on open and back to the launcher on close; Escape closes.
import { h } from '@tandem/elements'
import type { MountPanel, Panel, PanelHost } from '../panel-types.js'
import { createActionsBar } from './actions-bar.js'
import { createCacheView } from './cache-view.js'
import { createChannelsView } from './channels-view.js'
import { createConnectionView } from './connection-view.js'
import { createOutboxView, createSavedCacheView } from './persist-views.js'
import { createRateLimitsView } from './rate-limits-view.js'
import { createRequestsView } from './requests-view.js'
import { panelSheet } from './styles.js'
import { createTabs, type TabSpec } from './tabs.js'
import type { PanelContext } from './view.js'

export const mountPanel: MountPanel = (host: PanelHost): Panel => {
  const heading = h('h2', { id: 'devtools-title' })
  const close = h('button', { type: 'button', class: 'icon' }, '×')
  const status = h('p', { role: 'status', class: 'status' })
  const ctx: PanelContext = {
    ...host,
    announce(text) {
      // Emptied first, so the same words twice are still a change the reader announces.
      status.textContent = ''
      requestAnimationFrame(() => (status.textContent = text))
    },
  }
  const s = host.strings
  const { outbox, persister } = host.sources
  const specs: TabSpec[] = [
    { id: 'requests', label: () => s().requestsTab, view: createRequestsView(ctx) },
    { id: 'cache', label: () => s().cacheTab, view: createCacheView(ctx) },
    { id: 'connection', label: () => s().connectionTab, view: createConnectionView(ctx) },
    { id: 'channels', label: () => s().channelsTab, view: createChannelsView(ctx) },
    { id: 'rate-limits', label: () => s().rateLimitsTab, view: createRateLimitsView(ctx) },
  ]
  if (outbox) specs.push({ id: 'outbox', label: () => s().outboxTab, view: createOutboxView(ctx, outbox) })
  if (persister)
    specs.push({ id: 'saved-cache', label: () => s().savedCacheTab, view: createSavedCacheView(ctx, persister) })
  const tabs = createTabs(specs)
  const actions = createActionsBar(ctx)
  const node = h(
    'div',
    { role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'devtools-title', class: 'panel' },
    h('header', {}, heading, close),
    actions.node,
    status,
    tabs.strip,
    h('div', { class: 'body' }, ...tabs.panels),
  )
  close.addEventListener('click', () => host.close())

  const refresh = () => {
    const strings = s()
    heading.textContent = strings.title
    close.setAttribute('aria-label', strings.close)
    tabs.refresh(strings.sections)
    actions.refresh()
  }
  refresh()

  return {
    node,
    sheet: panelSheet(),
    opened() {
      tabs.activate(true)
      actions.refresh() // offline may have been undone elsewhere
      tabs.focus()
    },
    closed: () => tabs.activate(false),
    refresh,
    destroy() {
      tabs.activate(false)
      tabs.destroy()
      for (const spec of specs) spec.view.destroy()
      node.replaceChildren()
    },
  }
}
