import { z } from 'zod'
import { emailField } from './fields'

// Lengths are counted in characters as a person sees them (grapheme clusters), so 20 emoji are
// 20 characters, not 40 UTF-16 units, and the form's counter agrees with the server.
const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter(undefined, { granularity: 'grapheme' }) : null
export function charCount(s: string): number {
  if (!segmenter) return [...s].length
  let n = 0
  for (const _ of segmenter.segment(s)) n++
  return n
}

/** Text with a required message, a wrong-type message, a clean-up, then lengths in characters. */
function text(label: string, clean: (s: string) => string, min: number, max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be text`) })
    .transform(clean)
    .pipe(
      z
        .string()
        .min(1, `${label} is required`)
        .refine((s) => s.length === 0 || charCount(s) >= min, `${label} must be at least ${min} characters`)
        .refine((s) => s.length > max * 8 || charCount(s) <= max, `${label} must be less than ${max} characters`)
        .refine((s) => s.length <= max * 8, `${label} must be less than ${max} characters`),
    )
}

// A name is one line: line breaks, tabs and other control characters become spaces (so a name can
// never smuggle a header line into a reply e-mail), runs of spaces collapse.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this strips
const cleanName = (s: string) => s.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim()
// A message keeps its line breaks and tabs; other control characters (NUL, escape…) are dropped.
const cleanMessage = (s: string) =>
  s
    .replace(/\r\n?/g, '\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (not tab or newlines) are what this strips
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '')
    .trim()

export const ContactSchema = z.strictObject({
  fullName: text('Name', cleanName, 2, 50),
  email: emailField,
  message: text('Message', cleanMessage, 10, 500),
})
export type ContactInput = z.infer<typeof ContactSchema>
