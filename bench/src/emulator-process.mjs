// The emulator in its own process, so the benchmarked client does not share its CPU (as with a
// remote service). Prints { url, token } as one JSON line, then serves until killed.
import { startEmulator } from '@tandem/emulator'

const emu = await startEmulator({ plans: { maps: false, support: false, realtime: false } })
const token = await emu.mintToken({ ttlSeconds: 3_600 })
process.stdout.write(`${JSON.stringify({ url: emu.url, token })}\n`)
process.on('SIGTERM', () => emu.close().then(() => process.exit(0)))
