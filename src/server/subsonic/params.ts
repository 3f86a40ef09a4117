// Typed reading of OpenSubsonic request parameters (query string and POST form alike): a missing
// required one is error 10, a malformed one error 0 naming it; never a cast. Text holding a NUL
// character (or not Unicode) is malformed whatever the parameter (src/server/http/nul-text.ts).
import { textProblem } from '../http/nul-text'
import { ErrorCode, SubsonicError } from './response'

export class Params {
  constructor(private readonly search: URLSearchParams) {}

  raw(): URLSearchParams {
    return this.search
  }

  get(name: string): string | undefined {
    return this.one(name) ?? undefined
  }

  all(name: string): string[] {
    return this.search.getAll(name).map((value) => textOnly(name, value))
  }

  required(name: string): string {
    const value = this.one(name)
    if (value === null || value === '') throw new SubsonicError(ErrorCode.missingParameter, `Required parameter is missing: ${name}`)
    return value
  }

  private one(name: string): string | null {
    const value = this.search.get(name)
    return value === null ? null : textOnly(name, value)
  }

  int(name: string, opts: { min: number; max: number }): number | undefined
  int(name: string, opts: { min: number; max: number; fallback: number }): number
  int(name: string, opts: { min: number; max: number; fallback?: number }): number | undefined {
    const value = this.one(name)
    if (value === null || value === '') return opts.fallback
    if (!/^-?\d{1,16}$/.test(value)) throw invalid(name, 'must be a whole number')
    const n = Number(value)
    if (n < opts.min || n > opts.max) throw invalid(name, `must be between ${opts.min} and ${opts.max}`)
    return n
  }

  ints(name: string, opts: { min: number; max: number }): number[] {
    return this.all(name).map((value) => {
      if (!/^-?\d{1,16}$/.test(value)) throw invalid(name, 'must be a whole number')
      const n = Number(value)
      if (n < opts.min || n > opts.max) throw invalid(name, `must be between ${opts.min} and ${opts.max}`)
      return n
    })
  }

  /** A decimal number such as a playback rate (1, 1.5, 0.75). */
  decimal(name: string, opts: { min: number; max: number; fallback: number }): number {
    const value = this.one(name)
    if (value === null || value === '') return opts.fallback
    if (!/^\d{1,6}(\.\d{1,6})?$/.test(value)) throw invalid(name, 'must be a number such as 1 or 1.5')
    const n = Number(value)
    if (n < opts.min || n > opts.max) throw invalid(name, `must be between ${opts.min} and ${opts.max}`)
    return n
  }

  bool(name: string, fallback: boolean): boolean {
    const value = this.one(name)
    if (value === null || value === '') return fallback
    if (value === 'true') return true
    if (value === 'false') return false
    throw invalid(name, 'must be true or false')
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T {
    const value = this.required(name)
    if (!(values as readonly string[]).includes(value)) throw invalid(name, `must be one of ${values.join(', ')}`)
    return value as T
  }
}

function textOnly(name: string, value: string): string {
  const problem = textProblem(value)
  if (problem) throw new SubsonicError(ErrorCode.generic, `Parameter ${name}: ${problem}`)
  return value
}

const invalid = (name: string, why: string) => new SubsonicError(ErrorCode.generic, `Parameter ${name} ${why}`)
