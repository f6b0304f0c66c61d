// A frame a tab's client sends up to the hub, parsed into the contract's `ClientFrame`. The check
// covers what the hub reads (the type, the id, channels, tokens, resume); the service checks the
// rest (names, sizes, data) and answers through the hub as for any socket.
import type { ClientFrame } from '@tandem/contract'
import { CLIENT_FRAME_FIELDS } from '@tandem/contract/frame-fields'
import { fitsType } from './fits.js'

/** What the hub reads beyond the contract's line: each channel of a subscribe, a connect's resume. */
const HUB_READS: Partial<Record<ClientFrame['type'], string>> = {
  connect: 'resume?:object resume.connectionId:string',
  subscribe: 'channels[]:object channels[].channel:string',
  unsubscribe: 'channels[]:string',
}

/** The contract's line of each client frame (generated), with what the hub reads. */
const LINES = new Map(
  Object.entries(CLIENT_FRAME_FIELDS).map(([type, line]) => [
    type,
    [line, HUB_READS[type as ClientFrame['type']]].filter(Boolean).join(' '),
  ]),
)

const isClientFrame = (frame: unknown): frame is ClientFrame => fitsType(frame, LINES)

/** The frame in `text`, or `undefined` when it is not one of the contract's client frames. */
export function parseClientFrame(text: string): ClientFrame | undefined {
  try {
    const frame: unknown = JSON.parse(text)
    return isClientFrame(frame) ? frame : undefined
  } catch {
    return undefined
  }
}
