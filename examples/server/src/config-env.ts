/**
 * @module
 * Reading one environment variable: trimmed, empty as unset, and refused with
 * a `ConfigError` that names the variable and never echoes a secret.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}

export type Env = Readonly<Record<string, string | undefined>>

export function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim()
  return raw ? raw : undefined
}

export function origin(name: string, raw: string): string {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`)
  return raw.replace(/\/+$/, '')
}

/**
 * The scheme alone goes into the message: the rest of a database or Redis URL
 * usually carries a password, and configuration errors end up in logs.
 */
export function serviceUrl(env: Env, name: string, schemes: readonly string[], hint: string): string | undefined {
  const raw = value(env, name)
  if (raw === undefined) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new ConfigError(`${name} must be a URL (${hint})`)
  }
  if (!schemes.includes(url.protocol)) throw new ConfigError(`${name} must be a ${hint} URL, got scheme "${url.protocol}"`)
  return raw
}

export function boundedInteger(env: Env, name: string, min: number, max: number, meaning: string): number | undefined {
  const raw = value(env, name)
  if (raw === undefined) return undefined
  if (!/^\d{1,5}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be ${meaning}, a whole number from ${min} to ${max}, got "${raw}"`)
  }
  return Number(raw)
}
