// Browser side of bench/src/browser.mjs, bundled by esbuild: the same two clients as realtime.mjs,
// using the page's own WebSocket; each resolves to msgs/s timed in the page.
import { createRealtime } from '@tandem/realtime'
import { createNanoEvents } from 'nanoevents'
import ReconnectingWebSocket from 'partysocket/ws'

window.benchRaw = (url, n) =>
  new Promise((resolve, reject) => {
    // The clock starts before connecting, as Tandem's does (it also pays for its handshake).
    const started = performance.now()
    const ws = new WebSocket(url)
    let got = 0
    ws.onopen = () => ws.send('{"type":"raw"}')
    ws.onmessage = (e) => {
      const frame = JSON.parse(e.data)
      if (frame.type === 'message' && ++got === n) {
        const ms = performance.now() - started
        ws.close()
        resolve(n / (ms / 1000))
      }
    }
    ws.onerror = () => reject(new Error(`WebSocket error on ${url}`))
  })

// The design card's floor: partysocket + JSON.parse + nanoevents, none of Tandem's protocol.
window.benchPartysocket = (url, n, channels) =>
  new Promise((resolve) => {
    const started = performance.now()
    const events = createNanoEvents()
    const rws = new ReconnectingWebSocket(url, undefined, { maxRetries: 0 })
    let got = 0
    const onMessage = () => {
      if (++got === n) {
        const ms = performance.now() - started
        rws.close()
        resolve(n / (ms / 1000))
      }
    }
    for (let i = 0; i < channels; i++) events.on(`bench:${i}`, onMessage)
    rws.addEventListener('open', () => rws.send('{"type":"raw"}'))
    rws.addEventListener('message', (e) => {
      const frame = JSON.parse(e.data)
      if (frame.type === 'message') events.emit(frame.channel, frame)
    })
  })

window.benchTandem = async (url, n, channels) => {
  const rt = createRealtime({ auth: { fetchToken: async () => ({ token: 'bench', expiresIn: 3600 }) }, url })
  let got = 0
  let started = 0
  const rate = await new Promise((resolve) => {
    const onMessage = () => {
      if (++got === n) resolve(n / ((performance.now() - started) / 1000))
    }
    started = performance.now()
    for (let i = 0; i < channels; i++) rt.channel(`bench:${i}`).subscribe(onMessage)
  })
  rt.close()
  return rate
}

window.benchReady = true
