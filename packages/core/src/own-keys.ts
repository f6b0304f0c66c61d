// Service data is JSON, and JSON.parse makes every key an own data property, `"__proto__"`
// included. An assignment does not: `out.__proto__ = v` calls Object.prototype's accessor and
// replaces `out`'s prototype (so `out.isAdmin` is inherited from what the service sent), and
// `out.constructor = v` throws where the app froze Object.prototype. Every copy of service data
// key by key goes through here, so the copy has exactly the own properties JSON.parse gave.

/** `Object.hasOwn`: a key the object itself holds (never one it inherits, as `__proto__`). */
export const hasOwn = (target: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(target, key)

/** `target[key] = value` as JSON.parse does it: an own, enumerable, writable data property, whatever the key. */
export function setOwn(target: object, key: string | number, value: unknown): void {
  if (typeof key === 'string' && (key in Object.prototype || key === 'prototype'))
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else (target as Record<string | number, unknown>)[key] = value
}
