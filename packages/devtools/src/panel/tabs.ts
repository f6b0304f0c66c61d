// The WAI-ARIA tabs pattern: a tablist of tabs, each controlling its tabpanel; the selected tab
// is the only one in the tab order (roving tabindex); Left/Right move to the previous/next tab
// (wrapping), Home/End to the first/last, and moving selects (automatic activation: each view
// renders at once). Only the selected view is shown, and only it keeps itself current. The tabs
// scroll sideways when they do not fit (seven at 360 px): a faded chevron marks each side that
// has more, and the selected tab is always scrolled into view.
import { h } from '@tandem/elements'
import type { View } from './view.js'

export interface TabSpec {
  id: string
  label: () => string
  view: View
}

export interface Tabs {
  /** The tab list inside its strip (the overflow cues): what the panel places. */
  readonly strip: HTMLElement
  readonly tablist: HTMLElement
  readonly panels: HTMLElement[]
  /** Selects (and shows) the tab; `focus` moves focus to it. */
  select(id: string, focus?: boolean): void
  focus(): void
  /** The panel opened or closed: the selected view starts or stops keeping current. */
  activate(active: boolean): void
  refresh(label: string): void
  destroy(): void
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
  // Only a sign: the arrows move by tab (each comes into view), a finger or the scrollbar by swipe or drag.
  const cue = (side: 'start' | 'end') =>
    h('span', { class: `more ${side}`, 'aria-hidden': 'true' }, side === 'start' ? '‹' : '›')
  const strip = h('div', { class: 'tabstrip' }, cue('start'), tablist, cue('end'))
  /** Marks the sides with tabs out of view (scrollLeft runs negative right to left). */
  const overflow = () => {
    const hidden = tablist.scrollWidth - tablist.clientWidth
    const from = Math.abs(tablist.scrollLeft)
    strip.toggleAttribute('data-more-start', hidden > 1 && from > 1)
    strip.toggleAttribute('data-more-end', hidden > 1 && from < hidden - 1)
  }
  tablist.addEventListener('scroll', overflow, { passive: true })
  const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(overflow)
  resized?.observe(tablist)
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
    // Never a selected tab out of view (scroll-padding keeps it clear of the cues).
    buttons[selected]?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
    overflow()
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
    strip,
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
      if (on) overflow()
    },
    refresh(label) {
      tablist.setAttribute('aria-label', label)
      specs.forEach((s, i) => (buttons[i]!.textContent = s.label()))
      for (const s of specs) s.view.refresh()
      overflow() // other words, other widths
    },
    destroy: () => resized?.disconnect(),
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
