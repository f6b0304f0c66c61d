import { startEmulator, type Emulator, type EmulatorOptions } from '@tandem/emulator'
import type { ClientOptions, Logger, TandemClient } from '../index.js'
import { createClientOfStyle } from './client-style.js'

const open: Emulator[] = []
/** Closes the emulators `setup` started; after each test (setup.ts). */
export async function closeEmulators(): Promise<void> {
  await Promise.all(open.splice(0).map((e) => e.close()))
}

/** A real emulator on 127.0.0.1 and a client that gets its tokens from the emulator's dev token endpoint. */
export async function setup(
  options: {
    emulator?: EmulatorOptions
    client?: Partial<ClientOptions> | ((emu: Emulator) => Partial<ClientOptions>)
  } = {},
): Promise<{ emu: Emulator; client: TandemClient }> {
  const emu = await startEmulator(options.emulator)
  open.push(emu)
  const { client } = createClientOfStyle({
    baseUrl: emu.url,
    auth: { url: `${emu.url}/dev/token` },
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...(typeof options.client === 'function' ? options.client(emu) : options.client),
  })
  return { emu, client }
}

/** Collects log lines so tests can prove what never appears in them. */
export function memoryLogger(): { lines: string[]; logger: Required<Logger> } {
  const lines: string[] = []
  const push = (message: string, data?: Record<string, unknown>) =>
    lines.push(`${message} ${JSON.stringify(data ?? {})}`)
  return { lines, logger: { debug: push, info: push, warn: push, error: push } }
}
