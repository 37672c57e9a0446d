import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// `pnpm dev` serves the app on :5173 and forwards /api to the example server on :3000
// (start that with TRUSTED_ORIGINS=http://localhost:5173). `pnpm build` writes dist/, which the server serves.
export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
  build: { sourcemap: true },
})
