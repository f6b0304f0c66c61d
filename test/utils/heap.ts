// The heap after full collections, for tests that measure what a flood leaves behind.
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

export const MiB = 2 ** 20

/** `heapUsed` after two full collections (the second catches what the first's finalisers freed). */
export function heapAfterGc(): number {
  gc()
  gc()
  return process.memoryUsage().heapUsed
}
