// Form state for the app's forms: values, touched fields, the shared schema's
// first message per field (shown once touched), and validity for the submit button.
import { useMemo, useState } from 'react'
import type { z } from 'zod'

export function useForm<S extends z.ZodType<Record<string, unknown>, Record<string, string>>>(schema: S, initial: z.input<S>) {
  type Values = z.input<S>
  type Field = keyof Values & string
  const [values, setValues] = useState<Values>(initial)
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({})

  const errors = useMemo(() => {
    const result = schema.safeParse(values)
    const out: Partial<Record<Field, string>> = {}
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = (issue.path[0] ?? '') as Field
        out[key] ??= issue.message
      }
    }
    return out
  }, [schema, values])

  const isValid = Object.keys(errors).length === 0
  return {
    values,
    isValid,
    /** The error to show for a field: only once it has been touched. */
    error: (field: Field) => (touched[field] ? errors[field] : undefined),
    set: (field: Field, value: string) => setValues((v) => ({ ...v, [field]: value })),
    touch: (field: Field) => setTouched((t) => ({ ...t, [field]: true })),
    /** The props a TextField needs for one field. */
    field: (field: Field) => ({
      name: field,
      value: String(values[field] ?? ''),
      onValueChange: (value: string) => setValues((v) => ({ ...v, [field]: value })),
      onBlur: () => setTouched((t) => ({ ...t, [field]: true })),
      error: touched[field] ? errors[field] : undefined,
    }),
    touchAll: () => setTouched(Object.fromEntries(Object.keys(values).map((k) => [k, true])) as Partial<Record<Field, boolean>>),
    reset: () => {
      setValues(initial)
      setTouched({})
    },
    /** The parsed values (call only when isValid). */
    parsed: () => schema.parse(values) as z.output<S>,
  }
}
