// A frame a tab's client sends up to the hub, parsed into the contract's `ClientFrame`. The check
// covers what the hub reads (the type, the id, channels, tokens, resume); the service checks the
// rest (names, sizes, data) and answers through the hub as for any socket.
import type { ClientFrame } from '@tandem/contract'
import { fitsType, shapes } from './fits.js'

const SHAPES = shapes({
  connect: 'id:id token resume:resume?',
  subscribe: 'id:id channels:channels',
  unsubscribe: 'id:id channels:strings',
  publish: 'id:id channel event idempotencyKey',
  'presence.enter': 'id:id channel',
  'presence.update': 'id:id channel',
  'presence.leave': 'id:id channel',
  'presence.get': 'id:id channel',
  history: 'id:id channel',
  auth: 'id:id token',
  ping: 'id:id',
} satisfies Record<ClientFrame['type'], string>)

const isClientFrame = (frame: unknown): frame is ClientFrame => fitsType(frame, SHAPES)

/** The frame in `text`, or `undefined` when it is not one of the contract's client frames. */
export function parseClientFrame(text: string): ClientFrame | undefined {
  try {
    const frame: unknown = JSON.parse(text)
    return isClientFrame(frame) ? frame : undefined
  } catch {
    return undefined
  }
}
