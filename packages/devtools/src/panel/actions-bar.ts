// The Actions toolbar: the page's actions (a button each, when given), "Go offline"/"Back online"
// (built in: offline.ts), and Clear (forgets what was recorded). An action's outcome is said in
// the panel's polite status line; the action's own text is redacted like everything shown.
import { redact } from '@tandem/core/internal'
import { h } from '@tandem/elements'
import { goOffline, goOnline, isForcedOffline } from '../offline.js'
import type { DevtoolsActions } from '../types.js'
import type { PanelContext } from './view.js'

export interface ActionsBar {
  readonly node: HTMLElement
  refresh(): void
}

type ActionName = keyof DevtoolsActions

export function createActionsBar(ctx: PanelContext): ActionsBar {
  const node = h('div', { role: 'group', class: 'actions' })
  const buttons = new Map<ActionName, HTMLButtonElement>()
  const offline = h('button', { type: 'button' })
  const clear = h('button', { type: 'button' })
  const label = (name: ActionName) =>
    name === 'dropConnection' ? ctx.strings().dropConnection : ctx.strings().expireToken

  const run = async (name: ActionName, button: HTMLButtonElement) => {
    const action = ctx.actions()?.[name]
    if (!action || button.disabled) return
    const s = ctx.strings()
    const what = label(name)
    button.disabled = true
    ctx.announce(s.working(what))
    try {
      const said = await action()
      ctx.announce(typeof said === 'string' && said ? redact(said) : s.done(what))
    } catch (error) {
      ctx.announce(s.failed(what, redact(error instanceof Error ? error.message : String(error))))
    } finally {
      button.disabled = false
    }
  }

  offline.addEventListener('click', () => {
    const s = ctx.strings()
    if (isForcedOffline()) {
      goOnline()
      ctx.announce(s.cameOnline)
    } else {
      goOffline()
      ctx.announce(s.wentOffline)
    }
    refresh()
  })
  clear.addEventListener('click', () => ctx.recorder.clear())

  function refresh(): void {
    const s = ctx.strings()
    const actions = ctx.actions()
    node.setAttribute('aria-label', s.actions)
    const shown: HTMLElement[] = []
    for (const name of ['dropConnection', 'expireToken'] as const) {
      if (typeof actions?.[name] !== 'function') continue
      let button = buttons.get(name)
      if (!button) {
        const made = h('button', { type: 'button' })
        made.addEventListener('click', () => void run(name, made))
        buttons.set(name, (button = made))
      }
      button.textContent = label(name)
      shown.push(button)
    }
    offline.textContent = isForcedOffline() ? s.backOnline : s.goOffline
    clear.textContent = s.clear
    // Only what changed moves: a button keeps focus across a refresh.
    const want = [...shown, offline, clear]
    if (want.some((el, i) => node.children[i] !== el) || node.children.length !== want.length)
      node.replaceChildren(...want)
  }
  refresh()

  return { node, refresh }
}
