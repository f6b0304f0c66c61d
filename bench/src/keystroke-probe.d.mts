/** What `keystrokeProbe` keeps in the page, as `window.__keystrokes`. */
export interface KeystrokeFigures {
  /** Each keystroke's cost in ms, in order. */
  keys: number[]
  /** Each keystroke's time to the end of the frame that shows it, in ms, in order. */
  frames: number[]
  longTasks: { start: number; duration: number }[]
  keyAt: number | undefined
  /** performance.now() when the measured stretch began (the caller sets it). */
  from: number
}

/** Runs in the page (pass it to page.addInitScript or page.evaluate). */
export function keystrokeProbe(): void
