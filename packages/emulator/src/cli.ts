#!/usr/bin/env node
// `tandem-emulator [--port 8787] [--host 127.0.0.1] [--seed 1]`: the emulator for local dev.
import { parseArgs } from 'node:util'
import { DEFAULTS, DEV_APP } from './defaults.js'
import { startEmulator } from './start.js'
import { SERVICES, type AccessLogLine } from './shared-types.js'

const USAGE = `Usage: tandem-emulator [--port 8787] [--host 127.0.0.1] [--seed 1] [--quiet]`

function parse(): { port: number; host: string; seed: number; quiet: boolean } {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', short: 'p', default: '8787' },
      host: { type: 'string', default: DEFAULTS.host },
      seed: { type: 'string', default: String(DEFAULTS.seed) },
      quiet: { type: 'boolean', short: 'q', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    process.exit(0)
  }
  const port = Number(values.port)
  const seed = Number(values.seed)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer from 0 to 65535`)
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer`)
  return { port, host: values.host, seed, quiet: values.quiet }
}

function formatLine(l: AccessLogLine): string {
  return `${l.time} ${l.status || '---'} ${l.method.padEnd(6)} ${l.path} ${l.durationMs}ms ${l.requestId}${l.app ? ` ${l.app}` : ''}`
}

async function main(): Promise<void> {
  let args: ReturnType<typeof parse>
  try {
    args = parse()
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`)
    process.exit(2)
  }
  const emulator = await startEmulator({
    port: args.port,
    host: args.host,
    seed: args.seed,
    ...(args.quiet ? {} : { onLog: (line: AccessLogLine) => console.log(formatLine(line)) }),
  })
  const key = DEV_APP.keys[0]
  console.log(
    [
      `Tandem emulator listening on ${emulator.url}`,
      ...SERVICES.map((s) => `  ${s.padEnd(9)} ${emulator.url}/${s}/v1`),
      `  dev token ${emulator.url}${DEFAULTS.devTokenPath}  (GET or POST, ?subject=&scope=)`,
      '',
      'Dev app (LOCAL ONLY, never use these outside the emulator):',
      `  app id  ${DEV_APP.appId}`,
      `  key id  ${key?.id ?? ''}`,
      `  secret  ${key?.secret ?? ''}`,
      '',
    ].join('\n'),
  )
  let stopping = false
  const stop = (): void => {
    if (stopping) process.exit(1) // a second Ctrl-C forces the exit
    stopping = true
    void emulator.close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException
  console.error(e.code === 'EADDRINUSE' ? `Port already in use: ${e.message}` : err)
  process.exit(1)
})
