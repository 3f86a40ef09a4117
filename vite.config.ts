// Vite builds the TanStack Start app: client assets to dist/client, the SSR handler to dist/server.
import { tanstackStart } from '@tanstack/react-start/plugin/vite'
import viteReact from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

export default defineConfig({
  server: { port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' },
  resolve: { tsconfigPaths: true },
  plugins: [tanstackStart({ router: { quoteStyle: 'single', semicolons: false } }), viteReact()],
})
