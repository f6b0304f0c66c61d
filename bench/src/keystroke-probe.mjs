// The keystroke probe the chat bench (chat.mjs) and the chat's browser test (playground/e2e/chat.test.ts)
// install in a page: one definition, so the two measure the same thing. Passed to Playwright as a
// function (page.addInitScript or page.evaluate), it runs in the page and keeps its figures in
// `window.__keystrokes`.
//
// Two figures per keystroke, both from its keydown's timestamp (so the wait behind other work counts):
// - `keys`: to the end of the work it caused (the handlers, React's render and a forced style and
//   layout), i.e. everything but the paint;
// - `frames`: to the end of the frame that shows it (a task posted from the next animation frame runs
//   once that frame's rendering is done), i.e. what a person waits for, the wait for the display's
//   next frame (up to 16.7 ms at 60 Hz) included.
// Long tasks come from a PerformanceObserver.
export function keystrokeProbe() {
  const probe = { keys: [], frames: [], longTasks: [], keyAt: undefined, from: 0 }
  window.__keystrokes = probe
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })
  addEventListener('keydown', (e) => void (probe.keyAt = e.timeStamp), true)
  // Bubbling reaches window after React's root listener, so this microtask runs after its render.
  addEventListener('input', () => {
    const at = probe.keyAt
    if (at === undefined) return
    probe.keyAt = undefined
    queueMicrotask(() => {
      void document.body.offsetHeight // style and layout, as the next frame would
      probe.keys.push(performance.now() - at)
    })
    requestAnimationFrame(() => {
      const done = new MessageChannel()
      done.port1.onmessage = () => void probe.frames.push(performance.now() - at)
      done.port2.postMessage(undefined)
    })
  })
}
