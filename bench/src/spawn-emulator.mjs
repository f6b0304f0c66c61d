import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'

/** Starts src/emulator-process.mjs (with `options` added to its own) and resolves with its url, a token and a stop(). */
export async function spawnEmulator(options = {}) {
  const script = new URL('./emulator-process.mjs', import.meta.url).pathname
  const child = spawn(process.execPath, [script, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: child.stdout })
  const timeout = setTimeout(() => child.kill(), 15_000)
  const [line] = await once(lines, 'line')
  clearTimeout(timeout)
  const { url, token } = JSON.parse(line)
  return {
    url,
    token,
    stop: async () => {
      child.kill('SIGTERM')
      await once(child, 'exit')
    },
  }
}

/** Starts src/blast-server.mjs and resolves with its ports ({ port, socketIoPort }) and a stop(). */
export async function spawnBlast() {
  const child = spawn(process.execPath, [new URL('./blast-server.mjs', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const timeout = setTimeout(() => child.kill(), 15_000)
  const [line] = await once(createInterface({ input: child.stdout }), 'line')
  clearTimeout(timeout)
  return { ...JSON.parse(line), stop: () => child.kill() }
}
