// The message box: Enter sends, Shift+Enter is a new line (and so is Enter while an input method
// composes). The draft is kept as it is typed (drafts.ts) and cleared once the text is sent; a
// failed send keeps the text and the files and says why. Files come from the attach button (a
// real button before a hidden file input), a paste of images, or a drop on the view (`add`); they
// wait as chips (file-chips.ts) and go with the next message, whose progress and Cancel button
// show while they go up (upload-progress.ts). The customer's typing is told to the agents.
import { UPLOAD_MEDIA_TYPES } from '@tandem/contract'
import type { Uploads } from '@tandem/core/uploads'
import { h } from '@tandem/elements'
import { createCustomerTyping } from './customer-typing.js'
import { createFileChips } from './file-chips.js'
import { codeOf, refusalOf } from './file-checks.js'
import { icon } from '@tandem/elements'
import { createUploadProgress } from './upload-progress.js'
import type { PanelContext } from './view.js'

export interface Composer {
  readonly node: HTMLFormElement
  focus(): void
  /** Files dropped on the view or pasted: checked, then chips (or refusals said). */
  add(files: readonly File[]): void
  refresh(): void
  destroy(): void
}

export interface ComposerInput {
  text: string
  /** Absent when the message has none (the SDK then loads nothing of uploads). */
  files?: File[]
}

export interface ComposerOptions {
  /** Names the draft: a conversation id, or `new`. */
  draftKey: string
  /** Resolves once the service has the message; `idempotencyKey` is the write's (its progress's key). */
  send(input: ComposerInput, idempotencyKey: string): Promise<void>
  /** The customer's typing (a conversation's composer only). */
  typing?: (typing: boolean) => void
  /** The client's uploads store (null: no progress shown). */
  uploads: Uploads | null
  /** Besides this composer's own, the writes whose progress it shows (a conversation's, after a reload). */
  shows?: (path: string) => boolean
}

// The Material "attach file" paperclip.
const CLIP =
  'M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6h-1.5z'

/** An Idempotency-Key of 32 hex digits: getRandomValues works outside secure contexts too. */
const newKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')

const sameFiles = (a: readonly File[], b: readonly File[]) => a.length === b.length && a.every((f, i) => f === b[i])

export function createComposer(ctx: PanelContext, options: ComposerOptions): Composer {
  const { draftKey } = options
  const label = h('label', { class: 'sr', for: 'tandem-text' })
  const text = h('textarea', { id: 'tandem-text', rows: '2' })
  const attach = h('button', { type: 'button', class: 'icon attach' }, icon(CLIP))
  const picker = h('input', { type: 'file', multiple: '', hidden: '', accept: UPLOAD_MEDIA_TYPES.join(',') })
  const submit = h('button', { type: 'submit', class: 'primary' })
  const error = h('p', { class: 'error', role: 'alert', hidden: '' })
  const chips = createFileChips(ctx, () => text.focus())
  let sending: string | null = null
  const progress = createUploadProgress(
    ctx,
    options.uploads,
    (m) => m.key === sending || options.shows?.(m.path) === true,
    () => text.focus(),
  )
  const node = h('form', { class: 'composer' }, label, text, attach, submit, picker, chips.node, progress.node, error)
  const typing = createCustomerTyping((on) => {
    try {
      options.typing?.(on)
    } catch {
      // Typing is a courtesy: a messenger that cannot say it still sends the message.
    }
  })
  let busy = false
  /** What the error line says (null: hidden); kept so new strings can say it again. */
  let said: (() => string) | null = null
  let frame = 0
  /**
   * The draft of the last send that failed, with its Idempotency-Key: the same draft sent again
   * goes with the same key (its uploads resume, the service makes one message of it).
   */
  let failed: { key: string; text: string; files: readonly File[] } | null = null
  text.value = ctx.drafts.get(draftKey)

  const say = (sentence: (() => string) | null) => {
    said = sentence
    cancelAnimationFrame(frame)
    // A sentence shown is emptied first and the new one set in the next frame: the same refusal
    // twice is still a change the alert announces (a change within one task is none).
    const showing = error.textContent !== ''
    error.textContent = ''
    error.hidden = sentence === null
    if (!sentence) return
    if (showing) frame = requestAnimationFrame(() => (error.textContent = said?.() ?? ''))
    else error.textContent = sentence()
  }

  const refresh = () => {
    const s = ctx.strings()
    label.textContent = s.messageLabel
    text.placeholder = s.messagePlaceholder
    attach.setAttribute('aria-label', s.attach)
    submit.textContent = s.send
    if (said) error.textContent = said()
    chips.refresh()
    progress.refresh()
  }

  const add = (files: readonly File[]) => {
    if (files.length === 0) return
    const refusals = chips.add(files)
    say(refusals.length > 0 ? () => refusals.join(' ') : null)
  }

  const go = async () => {
    const value = text.value
    const files = [...chips.files()]
    if (busy || (value.trim() === '' && files.length === 0)) return
    busy = true
    // Not `disabled`: a disabled button drops the focus it has.
    submit.setAttribute('aria-disabled', 'true')
    say(null)
    typing.stop()
    const again = failed?.text === value && sameFiles(failed.files, files)
    const key = (sending = again && failed ? failed.key : newKey())
    progress.refresh()
    try {
      await options.send(files.length > 0 ? { text: value, files } : { text: value }, key)
      // Only what was sent is cleared: text typed and files added while it was on its way stay.
      if (text.value === value) text.value = ''
      ctx.drafts.set(draftKey, text.value)
      chips.remove(files)
      failed = null
    } catch (failure) {
      // A cancelled send's uploads are gone: what is sent next is a new write.
      failed = codeOf(failure) === 'upload_cancelled' ? null : { key, text: value, files }
      const s = ctx.strings()
      say(() => refusalOf(failure, files, s))
    } finally {
      busy = false
      sending = null
      submit.removeAttribute('aria-disabled')
      progress.refresh()
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
  text.addEventListener('input', () => {
    ctx.drafts.set(draftKey, text.value)
    typing.input(text.value)
  })
  text.addEventListener('blur', () => typing.stop())
  text.addEventListener('paste', (event) => {
    const data = event.clipboardData
    const files = data ? [...data.files] : []
    if (files.length === 0) return
    // A screenshot pastes as a file alone; text copied with an image keeps its text.
    if (!data?.types.includes('text/plain')) event.preventDefault()
    add(files)
  })
  attach.addEventListener('click', () => picker.click())
  picker.addEventListener('change', () => {
    add([...(picker.files ?? [])])
    // The same file chosen again is a change too.
    picker.value = ''
  })
  refresh()

  return {
    node,
    focus: () => text.focus(),
    add,
    refresh,
    destroy() {
      cancelAnimationFrame(frame)
      typing.stop()
      progress.destroy()
    },
  }
}
