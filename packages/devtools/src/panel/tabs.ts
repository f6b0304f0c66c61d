// The WAI-ARIA tabs pattern: a tablist of tabs, each controlling its tabpanel; the selected tab
// is the only one in the tab order (roving tabindex); Left/Right move to the previous/next tab
// (wrapping), Home/End to the first/last, and moving selects (automatic activation: each view
// renders at once). Only the selected view is shown, and only it keeps itself current.
import { h } from '@tandem/core/internal'
import type { View } from './view.js'

export interface TabSpec {
  id: string
  label: () => string
  view: View
}

export interface Tabs {
  readonly tablist: HTMLElement
  readonly panels: HTMLElement[]
  /** Selects (and shows) the tab; `focus` moves focus to it. */
  select(id: string, focus?: boolean): void
  focus(): void
  /** The panel opened or closed: the selected view starts or stops keeping current. */
  activate(active: boolean): void
  refresh(label: string): void
}

export function createTabs(specs: TabSpec[]): Tabs {
  const tablist = h('div', { role: 'tablist', class: 'tablist' })
  const buttons = specs.map((s) =>
    h('button', {
      type: 'button',
      role: 'tab',
      id: `tab-${s.id}`,
      'aria-controls': `tabpanel-${s.id}`,
      'aria-selected': 'false',
      tabindex: '-1',
    }),
  )
  const panels = specs.map((s) =>
    h(
      'div',
      { role: 'tabpanel', id: `tabpanel-${s.id}`, 'aria-labelledby': `tab-${s.id}`, tabindex: '0', hidden: '' },
      s.view.node,
    ),
  )
  tablist.append(...buttons)
  let selected = 0
  let active = false

  const select = (index: number, focus = false) => {
    if (index !== selected) {
      if (active) specs[selected]?.view.hide()
      buttons[selected]?.setAttribute('aria-selected', 'false')
      buttons[selected]?.setAttribute('tabindex', '-1')
      panels[selected]?.setAttribute('hidden', '')
      selected = index
    }
    buttons[selected]?.setAttribute('aria-selected', 'true')
    buttons[selected]?.setAttribute('tabindex', '0')
    panels[selected]?.removeAttribute('hidden')
    if (active) specs[selected]?.view.show()
    if (focus) buttons[selected]?.focus()
  }

  buttons.forEach((button, i) => button.addEventListener('click', () => select(i, true)))
  tablist.addEventListener('keydown', (event) => {
    const n = buttons.length
    const to = step(event.key, selected, n)
    if (to === undefined) return
    event.preventDefault()
    select(to, true)
  })
  select(0)

  return {
    tablist,
    panels,
    select: (id, focus) =>
      select(
        Math.max(
          0,
          specs.findIndex((s) => s.id === id),
        ),
        focus,
      ),
    focus: () => buttons[selected]?.focus(),
    activate(on) {
      if (on === active) return
      active = on
      if (on) specs[selected]?.view.show()
      else specs[selected]?.view.hide()
    },
    refresh(label) {
      tablist.setAttribute('aria-label', label)
      specs.forEach((s, i) => (buttons[i]!.textContent = s.label()))
      for (const s of specs) s.view.refresh()
    },
  }
}

/** Where a key moves the selection from `at` among `n` tabs; undefined for a key that does not. */
function step(key: string, at: number, n: number): number | undefined {
  switch (key) {
    case 'ArrowRight':
      return (at + 1) % n
    case 'ArrowLeft':
      return (at - 1 + n) % n
    case 'Home':
      return 0
    case 'End':
      return n - 1
    default:
      return undefined
  }
}
