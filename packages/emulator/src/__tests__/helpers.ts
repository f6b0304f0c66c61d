// Shared test helpers: a real emulator on 127.0.0.1:0 and a small fetch wrapper.
import { afterAll, beforeAll } from 'vitest'
import { startEmulator } from '../start.js'
import type { Emulator, EmulatorOptions } from '../types.js'
import { conform } from './conformance.js'

export interface ErrorJson {
  error: { code: string; message: string; status: number; requestId: string; details?: Record<string, unknown>[] }
}

/** Starts one emulator for the file; `get()` returns it inside tests. */
export function useEmulator(options: EmulatorOptions = {}): () => Emulator {
  let emu: Emulator | undefined
  beforeAll(async () => {
    emu = await startEmulator(options)
  })
  afterAll(async () => {
    await emu?.close()
  })
  return () => {
    if (!emu) throw new Error('emulator not started')
    return emu
  }
}

export interface CallInit extends Omit<RequestInit, 'body'> {
  token?: string
  json?: unknown
  body?: RequestInit['body']
}

export async function call(emu: Emulator, path: string, init: CallInit = {}): Promise<Response> {
  const { token, json, headers, ...rest } = init
  const h = new Headers(headers)
  if (token) h.set('Authorization', `Bearer ${token}`)
  if (json !== undefined) h.set('Content-Type', 'application/json')
  const response = await fetch(`${emu.url}${path}`, {
    ...rest,
    headers: h,
    ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
  })
  // Every answer is checked against the contract (conformance.ts).
  return conform(rest.method ?? 'GET', path, response)
}

/** Call with a fresh default-scope token. */
export async function authed(emu: Emulator, path: string, init: CallInit = {}): Promise<Response> {
  return call(emu, path, { token: await emu.mintToken(), ...init })
}

export async function expectError(res: Response, status: number, code: string): Promise<ErrorJson> {
  const body = (await res.json()) as ErrorJson
  if (res.status !== status || body.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(body)}`)
  }
  if (body.error.status !== status) throw new Error('error.status mismatch')
  if (body.error.requestId !== res.headers.get('x-request-id')) throw new Error('requestId mismatch')
  return body
}
