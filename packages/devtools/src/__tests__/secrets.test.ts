import { DEV_APP } from '@tandem/emulator'
import { expect, it } from 'vitest'
import { poll, waitUntil } from '../../../../test/utils/wait.js'
import { everythingIn, mount, openPanel, setup, untilRecorded } from './helpers.js'

// The devtools never show a token or a secret: after requests (a token in a query, refused, and in a path,
// a 401 and its refresh), realtime frames (the connect, an in-band re-auth, a token in app data)
// and an expired token (the Expire token action), neither the panel's DOM, text and attributes,
// with every tab shown and every frame expanded, nor the recorder's snapshot holds any of them.

it('no token and no secret in the panel or in what it recorded', async () => {
  // The client believes its tokens live 2 s: REST refreshes them and the realtime re-auths in band.
  const s = await setup({ expiresIn: 2 })
  const el = mount({
    client: s.client,
    realtime: s.realtime,
    actions: { expireToken: async () => void s.emu.realtime.revoke('dev-user') },
  })
  const recorded = () => el.recorder!.getSnapshot()
  const first = await s.client.auth.getToken()
  // A token in a query never leaves: refused before sending, its value in no message.
  const inQuery = await s.client
    .request({ service: 'maps', method: 'GET', path: '/v1/resources', query: { token: first } })
    .catch((error: unknown) => error)
  expect(inQuery).toMatchObject({ name: 'ValidationError', field: 'token' })
  expect(String((inQuery as Error).message)).not.toContain(first)
  // A token-shaped path segment (not a live token: the 404 is logged by happy-dom's fetch).
  const shaped = 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJkZXZ0b29scyJ9.c2lnbmF0dXJl'
  await s.client
    .request({ service: 'maps', method: 'GET', path: `/v1/resources/${shaped}` })
    .catch((error: unknown) => error)
  s.emu.faults.failNext(1, { service: 'maps', status: 401, code: 'token_expired' })
  await s.client.request({ service: 'maps', method: 'GET', path: '/v1/resources' })

  const channel = s.realtime.channel('devtools:secrets')
  const off = channel.subscribe(() => {})
  await waitUntil(() => channel.state === 'subscribed', { what: 'subscribed' })
  await channel.publish('leak', { note: `Bearer ${first}`, accessToken: first, secret: DEV_APP.keys[0]!.secret })
  await untilRecorded(el, () => recorded().frames.some((f) => f.type === 'authed'), 'an in-band re-auth')

  const root = await openPanel(el)
  const expire = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Expire token')!
  expire.click()
  await untilRecorded(
    el,
    () => recorded().timeline.some((r) => r.kind === 'state' && r.reason === 'token_revoked'),
    'the revoked token in the timeline',
  )
  await waitUntil(() => s.realtime.state === 'connected', { what: 'connected on a new token' })
  await poll(() => root.querySelector('[role=status]')!.textContent === 'Expire token: done', 'the action done')

  // Every tab shown, every frame open: all that the panel can put in the DOM.
  for (const t of root.querySelectorAll<HTMLElement>('[role=tab]')) {
    t.click()
    for (const d of root.querySelectorAll('details')) d.open = true
  }
  const dom = everythingIn(el)
  const stored = JSON.stringify(recorded())
  expect(recorded().requests.map((r) => r.path)).toContain('/maps/v1/resources/[redacted]')
  expect(recorded().frames.length).toBeGreaterThan(5)
  expect(dom).toContain('Bearer [redacted]') // the frame is there, its token not
  expect(s.tokens.length).toBeGreaterThanOrEqual(3)
  for (const secret of [...new Set(s.tokens), shaped, DEV_APP.keys[0]!.secret]) {
    expect(dom).not.toContain(secret)
    expect(stored).not.toContain(secret)
  }
  off()
})
