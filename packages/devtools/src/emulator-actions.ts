// The Actions toolbar against the emulator's dev controls, as the playground serves them
// (playground/tandem-plugin.ts): `POST {base}/drop?user=` cuts the user's sockets the way a
// network drop does, `POST {base}/expire?user=` revokes every token issued to them.
import type { DevtoolsActions } from './types.js'

export interface EmulatorActionsOptions {
  /** The signed-in user (the tokens' subject) whose connection and tokens the actions hit. */
  user: string
  /** @default '/api/dev' */
  base?: string
  /** @default globalThis.fetch */
  fetch?: typeof globalThis.fetch
}

/** `{ dropConnection, expireToken }` for `<tandem-devtools>`'s `actions`, against the emulator. */
export function emulatorActions(options: EmulatorActionsOptions): DevtoolsActions {
  const { user, base = '/api/dev' } = options
  const post = async (control: 'drop' | 'expire'): Promise<Record<string, unknown>> => {
    const fetch = options.fetch ?? globalThis.fetch
    const response = await fetch(`${base}/${control}?user=${encodeURIComponent(user)}`, { method: 'POST' })
    const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } } & Record<string, unknown>
    if (!response.ok) throw new Error(body.error?.message ?? `${response.status} ${response.statusText}`)
    return body
  }
  const count = (n: unknown, what: string) => `${Number(n) || 0} ${what}${n === 1 ? '' : 's'}`
  return {
    dropConnection: async () => `dropped ${count((await post('drop')).dropped, 'connection')} of ${user}`,
    expireToken: async () => `revoked the tokens of ${user}: ${count((await post('expire')).revoked, 'socket')} closed`,
  }
}
