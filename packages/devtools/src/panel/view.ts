// What every tab's view is, and what it may ask of the panel.
import type { PanelHost } from '../panel-types.js'

export interface View {
  /** The tab's content (the panel wraps it in its tabpanel). */
  readonly node: HTMLElement
  /** The tab became visible: render, and start whatever keeps it current (ticks, subscriptions). */
  show(): void
  /** The tab was hidden (another tab, the panel closed): stop the ticks. */
  hide(): void
  /** The strings changed: render the words again. */
  refresh(): void
  destroy(): void
}

export interface PanelContext extends PanelHost {
  /** Says `text` through the panel's polite status line. */
  announce(text: string): void
}

/** Calls `fn` every `ms` while started; `stop` is idempotent. */
export function ticker(ms: number, fn: () => void): { start(): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | undefined
  return {
    start() {
      timer ??= setInterval(fn, ms)
    },
    stop() {
      if (timer !== undefined) clearInterval(timer)
      timer = undefined
    },
  }
}

/** Sets the text only if it differs: a screen reader is not told of a change that is none. */
export function setText(el: Node, text: string): void {
  if (el.textContent !== text) el.textContent = text
}

/** Subscribes while shown: `listen` returns the unsubscribe, `render` draws (`force`: words changed). */
export function whileShown(
  listen: (render: () => void) => () => void,
  render: (force: boolean) => void,
  tick?: { start(): void; stop(): void },
): Pick<View, 'show' | 'hide' | 'refresh' | 'destroy'> {
  let off: (() => void) | undefined
  const hide = () => {
    off?.()
    off = undefined
    tick?.stop()
  }
  return {
    show() {
      off ??= listen(() => render(false))
      tick?.start()
      render(true)
    },
    hide,
    refresh: () => void (off && render(true)),
    destroy: hide,
  }
}
