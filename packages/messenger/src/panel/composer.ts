// The message box: Enter sends, Shift+Enter is a new line (and so is Enter while an input method
// composes). The draft is kept as it is typed (drafts.ts) and cleared once the text is sent; a
// failed send keeps the text and says so.
import { h } from '@tandem/elements'
import type { PanelContext } from './view.js'

export interface Composer {
  readonly node: HTMLFormElement
  focus(): void
  refresh(): void
}

/** `send` resolves once the service has the text; `draftKey` names the draft (a conversation id or `new`). */
export function createComposer(ctx: PanelContext, draftKey: string, send: (text: string) => Promise<void>): Composer {
  const label = h('label', { class: 'sr', for: 'tandem-text' })
  const text = h('textarea', { id: 'tandem-text', rows: '2' })
  const submit = h('button', { type: 'submit', class: 'primary' })
  const error = h('p', { class: 'error', role: 'alert', hidden: '' })
  const node = h('form', { class: 'composer' }, label, text, submit, error)
  let busy = false
  text.value = ctx.drafts.get(draftKey)

  const refresh = () => {
    const s = ctx.strings()
    label.textContent = s.messageLabel
    text.placeholder = s.messagePlaceholder
    submit.textContent = s.send
    error.textContent = s.sendFailed
  }

  const go = async () => {
    const value = text.value
    if (busy || value.trim() === '') return
    busy = true
    submit.disabled = true
    error.hidden = true
    try {
      await send(value)
      // Only what was sent is cleared: text typed while it was on its way stays.
      if (text.value === value) text.value = ''
      ctx.drafts.set(draftKey, text.value)
    } catch {
      error.hidden = false
    } finally {
      busy = false
      submit.disabled = false
    }
  }

  node.addEventListener('submit', (event) => {
    event.preventDefault()
    void go()
  })
  text.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return
    event.preventDefault()
    void go()
  })
  text.addEventListener('input', () => ctx.drafts.set(draftKey, text.value))
  refresh()

  return { node, focus: () => text.focus(), refresh }
}
