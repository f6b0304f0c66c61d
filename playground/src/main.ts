import { createClient, isTandemError, type ServiceName } from '@tandem/core'

// The browser never sees a key: it asks our own backend (here, the Vite dev server) for tokens.
const client = createClient({ baseUrl: location.origin, auth: { url: '/api/tandem-token' } })

const logEl = document.querySelector<HTMLDivElement>('#log')!
function log(text: string): void {
  const line = document.createElement('div')
  line.textContent = `${new Date().toLocaleTimeString()}  ${text}`
  logEl.prepend(line)
}
client.on('request', (e) => log(`${e.method} /${e.service}${e.path} → ${e.status ?? e.errorCode} in ${e.durationMs} ms (${e.requestId ?? 'no id'})`))
client.on('retry', (e) => log(`retry ${e.method} ${e.path} in ${e.delayMs} ms: ${e.reason}`))
client.on('rateLimitWait', (e) => log(`rate limit: ${e.service} waited ${e.waitMs} ms, ${e.queued} queued`))
client.auth.on('token', (t) => log(`token refreshed, expires in ${t.expiresIn} s`))

async function showServices(): Promise<void> {
  const el = document.querySelector<HTMLDivElement>('#services')!
  el.replaceChildren()
  for (const service of ['maps', 'support', 'realtime'] satisfies ServiceName[]) {
    const section = document.createElement('div')
    try {
      const page = await client[service].resources.list({ limit: 5 })
      section.innerHTML = `<h3>${service}</h3>`
      const ul = document.createElement('ul')
      for (const item of page.data) ul.append(Object.assign(document.createElement('li'), { textContent: item.name }))
      section.append(ul)
    } catch (error) {
      section.textContent = isTandemError(error) ? `${service}: ${error.code} (${error.requestId ?? '-'})` : String(error)
    }
    el.append(section)
  }
}

document.querySelector('#more')!.addEventListener('click', async () => {
  const started = performance.now()
  const results = await Promise.allSettled(Array.from({ length: 300 }, () => client.maps.resources.list({ limit: 1 }).then((p) => p)))
  const failed = results.filter((r) => r.status === 'rejected').length
  log(`300 map requests: ${300 - failed} ok, ${failed} failed, ${Math.round(performance.now() - started)} ms`)
})

void showServices()
