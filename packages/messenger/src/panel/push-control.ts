// "Notify me of replies": the customer's web push, shown only when the page gave the element a
// push controller (`el.push`). One button whose words follow the state (so focus stays on it
// from "Notify me" to "Turn off"), a status line, and each change said in the panel's live
// region. Permission is asked from the button's click only: browsers refuse it otherwise.
import { h } from '@tandem/elements'
import type { MessengerPush } from '../panel-types.js'
import type { PanelContext } from './view.js'

export interface PushControl {
  readonly node: HTMLElement
  /** The strings or the element's controller changed. */
  refresh(): void
  destroy(): void
}

type Status = ReturnType<MessengerPush['getSnapshot']>['status']

export function createPushControl(ctx: PanelContext): PushControl {
  const button = h('button', { type: 'button', class: 'link' })
  // Focusable from script: where focus goes when the button it was on goes away (blocked).
  const note = h('p', { class: 'note', tabindex: '-1' })
  const node = h('div', { class: 'push' }, note, button)
  let push: MessengerPush | null = null
  let off = () => {}
  let last: Status | null = null

  button.addEventListener('click', () => {
    const p = push
    if (!p) return
    const status = p.getSnapshot().status
    if (status === 'subscribed') void p.disable().catch(() => {})
    else if (status === 'default' || status === 'error') void p.enable().catch(() => {})
  })

  const render = () => {
    const s = ctx.strings()
    const state = push?.getSnapshot()
    const status = state?.status ?? 'unsupported'
    node.hidden = status === 'unsupported'
    const text =
      status === 'subscribing'
        ? s.pushEnabling
        : status === 'subscribed'
          ? s.pushOn
          : status === 'denied'
            ? s.pushDenied
            : status === 'error'
              ? s.pushFailed(state?.reason ?? null)
              : ''
    note.textContent = text
    note.hidden = text === ''
    const hadFocus = (button.getRootNode() as ShadowRoot).activeElement === button
    button.hidden = status === 'denied' || status === 'unsupported'
    button.textContent = status === 'subscribed' ? s.pushDisable : s.pushEnable
    // Still focusable while busy (a disabled button would drop the focus it has).
    if (status === 'subscribing') button.setAttribute('aria-disabled', 'true')
    else button.removeAttribute('aria-disabled')
    if (hadFocus && button.hidden && !note.hidden) note.focus()
    // A change the customer caused or should know of is said; the first state is only shown.
    const said = status === 'default' ? (last === 'subscribed' ? s.pushOff : '') : text
    if (last !== null && status !== last && said) ctx.announce(said)
    last = status
  }

  const bind = () => {
    const next = ctx.push()
    if (next === push) return
    off()
    push = next
    last = null
    off = next ? next.subscribe(render) : () => {}
  }

  bind()
  render()
  return {
    node,
    refresh() {
      bind()
      render()
    },
    destroy: () => off(),
  }
}
