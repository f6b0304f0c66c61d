// Before every test file of the projects that run without isolation (vite.config.ts): one worker
// runs file after file in one module graph, so what a file leaves on the global object reaches the
// next. Fake timers are what tests switch on most; they end with each test, wherever it came from.
import { afterEach, vi } from 'vitest'

afterEach(() => {
  vi.useRealTimers()
})
