// One POST to a push service, bounded: an overall deadline for the whole attempt (a socket idle
// timeout alone lets an endpoint that trickles a byte now and then hold it forever) and at most
// ANSWER_BYTES of the answer read. The status decides; the body is read only so the connection
// can be reused.
import { request, type Agent } from 'node:https'

/** What is read of an answer's body at most; past it the connection is dropped. */
export const ANSWER_BYTES = 4096

export interface PostRequest {
  endpoint: string
  method: string
  headers: Record<string, string | number>
  body: Buffer | null
}

export interface Posting {
  /** The status, or the reason there is none; never rejects. */
  done: Promise<{ httpStatus: number } | { error: string }>
  /** Ends the attempt now (reset, close): `done` settles with `reason`. */
  abort(reason: string): void
}

export function post(details: PostRequest, o: { agent: Agent | undefined; timeoutMs: number }): Posting {
  let abort: (reason: string) => void = () => {}
  const done = new Promise<{ httpStatus: number } | { error: string }>((resolve) => {
    let status: number | undefined
    let settled = false
    const finish = (error?: string) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      // A status that arrived is the push service's answer, whatever became of the rest of the body.
      resolve(status !== undefined ? { httpStatus: status } : { error: error ?? 'no answer' })
    }
    const req = request(details.endpoint, {
      method: details.method,
      headers: details.headers,
      ...(o.agent ? { agent: o.agent } : {}),
    })
    const deadline = setTimeout(() => {
      finish(`Timeout: no complete answer within ${o.timeoutMs} ms`)
      req.destroy()
    }, o.timeoutMs)
    abort = (reason) => {
      finish(reason)
      req.destroy()
    }
    req.on('response', (res) => {
      status = res.statusCode ?? 0
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        if (read <= ANSWER_BYTES) return
        finish()
        req.destroy()
      })
      res.on('end', () => finish())
      res.on('error', () => finish())
    })
    req.on('error', (err) => finish(err.message))
    req.on('close', () => finish('the connection closed before an answer'))
    if (details.body) req.write(details.body)
    req.end()
  })
  return { done, abort: (reason) => abort(reason) }
}
