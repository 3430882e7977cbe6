import { defineConfig } from 'vite'

// The renderer is a plain web app: the same build is served by the desktop app:// protocol and by
// browser mode's host, so it uses relative asset paths and never imports Node or Electron.
export default defineConfig({
  root: 'src',
  base: './',
  publicDir: false,
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
  },
  oxc: { jsx: { runtime: 'automatic' } },
})
