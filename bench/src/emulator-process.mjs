// The emulator in its own process, so the benchmarked client does not share its CPU (as with a
// remote service). Prints { url, token } as one JSON line, then serves until killed.
import { startEmulator } from '@tandem/emulator'

// An optional JSON argument adds options (the devtools bench lifts the realtime publish rate).
const extra = JSON.parse(process.argv[2] ?? '{}')
const emu = await startEmulator({ plans: { maps: false, support: false, realtime: false }, ...extra })
const token = await emu.mintToken({ ttlSeconds: 3_600 })
process.stdout.write(`${JSON.stringify({ url: emu.url, token })}\n`)
process.on('SIGTERM', () => emu.close().then(() => process.exit(0)))
