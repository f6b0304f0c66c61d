// The panel: a dialog with a header (back, heading, close), two tabs (conversations, help) and
// one view at a time. Non-modal (aria-modal="false"): like a chat bubble, it sits beside the
// page, which stays usable (no focus trap, no inert page); focus moves into it on open and back
// to the launcher on close, and Escape closes it.
import { h } from '@tandem/elements'
import type { MountPanel, Panel, PanelHost } from '../panel-types.js'
import { createArticleView, createHelpView } from './help-view.js'
import { createListView } from './list-view.js'
import { panelSheet } from './styles.js'
import { createThreadView } from './thread-view.js'
import type { PanelContext, View } from './view.js'

export const mountPanel: MountPanel = (host: PanelHost): Panel => {
  const heading = h('h2', { tabindex: '-1' })
  const back = h('button', { type: 'button', class: 'icon', hidden: '' }, '‹')
  const close = h('button', { type: 'button', class: 'icon' }, '×')
  const tabConversations = h('button', { type: 'button', 'aria-pressed': 'true' })
  const tabHelp = h('button', { type: 'button', 'aria-pressed': 'false' })
  const tabs = h('div', { class: 'tabs' }, tabConversations, tabHelp)
  const live = h('div', { class: 'sr', 'aria-live': 'polite' })
  const body = h('div', { class: 'body' })
  const node = h(
    'div',
    { role: 'dialog', 'aria-modal': 'false', class: 'panel' },
    h('header', {}, back, heading, close),
    tabs,
    body,
    live,
  )
  let view: View | null = null

  const ctx: PanelContext = {
    ...host,
    showList: () => show(createListView(ctx)),
    showThread: (id) => show(createThreadView(ctx, id)),
    showHelp: () => show(createHelpView(ctx)),
    showArticle: (id) => show(createArticleView(ctx, id)),
    announce(text) {
      // Emptied first, so the same words twice are still a change the reader announces.
      live.textContent = ''
      requestAnimationFrame(() => (live.textContent = text))
    },
    retitle: () => render(),
    visible: () => !node.hidden && node.isConnected && document.visibilityState === 'visible',
  }

  function show(next: View): void {
    view?.destroy()
    view = next
    body.replaceChildren(next.node)
    render()
    if (!node.hidden) next.focus()
  }

  function render(): void {
    const s = host.strings()
    heading.textContent = view?.title() ?? s.title
    back.hidden = !view?.back
    back.setAttribute('aria-label', s.back)
    close.setAttribute('aria-label', s.close)
    tabConversations.textContent = s.conversationsTab
    tabHelp.textContent = s.helpTab
    tabConversations.setAttribute('aria-pressed', String(view?.tab === 'conversations'))
    tabHelp.setAttribute('aria-pressed', String(view?.tab === 'help'))
    node.setAttribute('aria-label', s.title)
  }

  back.addEventListener('click', () => view?.back?.())
  close.addEventListener('click', () => host.close())
  tabConversations.addEventListener('click', () => ctx.showList())
  tabHelp.addEventListener('click', () => ctx.showHelp())
  ctx.showList()

  return {
    node,
    sheet: panelSheet(),
    opened() {
      view?.focus()
      view?.opened?.()
    },
    refresh() {
      render()
      view?.refresh()
    },
    destroy() {
      view?.destroy()
      view = null
      node.replaceChildren()
    },
  }
}
