// Webhook test fixtures: secrets, a fresh event per call, a signed delivery, the error shape.
import { expect } from 'vitest'
import { signWebhook, type WebhookEvent } from '../index.js'

export const SECRET = 'whsec_handler_test_9c1d3e5f7a9b2c4d6e8f'
export const OLD = 'whsec_handler_old_1a2b3c4d5e6f7a8b'
export const URL_ = 'https://app.example/api/tandem-webhooks'
let counter = 0

export function event(type = 'conversation.created', data: unknown = { conversationId: 'conv_1' }): WebhookEvent {
  counter++
  return { id: `evt_test_${counter}`, type, createdAt: new Date().toISOString(), appId: 'app_test', data }
}

export async function signed(
  body: string,
  secret = SECRET,
  timestamp?: number,
  init: RequestInit = {},
): Promise<Request> {
  const headers = new Headers(init.headers)
  headers.set('content-type', 'application/json')
  headers.set('tandem-signature', await signWebhook(body, secret, timestamp))
  return new Request(URL_, { method: 'POST', ...init, headers, body })
}

export async function expectError(response: Response, status: number, code: string): Promise<string> {
  const body = (await response.json()) as { error: { code: string; message: string; status: number } }
  expect([response.status, body.error.code, body.error.status]).toEqual([status, code, status])
  expect(response.headers.get('cache-control')).toBe('no-store')
  return body.error.message
}
