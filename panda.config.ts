// The Vibes theme: dark first, one accent gradient, spacing and type from Panda's scale.
import { defineConfig } from '@pandacss/dev'

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  jsxFramework: 'react',
  outdir: 'styled-system',
  conditions: { extend: { light: '[data-theme=light] &' } },
  globalCss: {
    'html, body': { bg: 'bg.canvas', color: 'fg.default', fontFamily: 'body', minHeight: '100%' },
    body: { WebkitFontSmoothing: 'antialiased' },
    // Focus and scrollIntoView stop above the fixed player bar (player-bar.tsx sets the height).
    html: { scrollPaddingBottom: 'var(--player-bar-height, 0px)' },
    '*:focus-visible': { outline: '2px solid', outlineColor: 'accent.default', outlineOffset: '2px' },
    a: { color: 'inherit', textDecoration: 'none' },
  },
  theme: {
    extend: {
      tokens: {
        fonts: {
          body: { value: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' },
          mono: { value: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
        },
      },
      semanticTokens: {
        colors: {
          bg: {
            canvas: { value: { base: '#0b0b12', _light: '#f7f7fb' } },
            surface: { value: { base: '#14141f', _light: '#ffffff' } },
            subtle: { value: { base: '#1d1d2b', _light: '#eeeef5' } },
            muted: { value: { base: '#272738', _light: '#e2e2ec' } },
          },
          fg: {
            default: { value: { base: '#f3f3f8', _light: '#15151f' } },
            muted: { value: { base: '#a3a3b8', _light: '#55556a' } },
            // Lightest text that still meets WCAG AA (4.5:1) on every background it sits on.
            subtle: { value: { base: '#8a8aa0', _light: '#65657a' } },
          },
          border: { default: { value: { base: '#2c2c3f', _light: '#dcdce6' } } },
          accent: {
            default: { value: '#a855f7' },
            // Accent-coloured text: accent.default is 3.9:1 on accent.muted, under WCAG AA's 4.5:1.
            text: { value: { base: '#c084fc', _light: '#7e22ce' } },
            emphasized: { value: '#9333ea' },
            fg: { value: '#ffffff' },
            muted: { value: { base: 'rgba(168,85,247,0.16)', _light: 'rgba(168,85,247,0.12)' } },
            pink: { value: '#ec4899' },
          },
          // White text on danger.default is 3.8:1; filled danger buttons use emphasized (4.8:1, WCAG AA).
          danger: { default: { value: '#ef4444' }, emphasized: { value: '#dc2626' }, muted: { value: 'rgba(239,68,68,0.14)' }, fg: { value: '#fca5a5' } },
          success: { default: { value: '#22c55e' }, muted: { value: 'rgba(34,197,94,0.14)' }, fg: { value: '#86efac' } },
          warning: { default: { value: '#eab308' }, muted: { value: 'rgba(234,179,8,0.16)' }, fg: { value: '#fde047' } },
        },
      },
    },
  },
})
