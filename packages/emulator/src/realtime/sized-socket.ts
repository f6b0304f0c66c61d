// `ws` refuses a message over its `maxPayload` itself, as soon as the frame header announces the
// length (nothing is buffered), and closes with 1009. The protocol promises 4009 frame_too_large
// (docs/protocol.md) whatever the size, so the server's sockets are this subclass (ws's
// `WebSocket` option), whose close turns that one 1009 into 4009.
import { CLOSE } from '@tandem/contract'
import { WebSocket } from 'ws'
import { closeReason } from './frames.js'

const MESSAGE_TOO_BIG = 1009

export class SizedSocket extends WebSocket {
  override close(code?: number, data?: string | Buffer): void {
    if (code === MESSAGE_TOO_BIG) return super.close(CLOSE.frame_too_large, closeReason('frame_too_large'))
    super.close(code, data)
  }
}
