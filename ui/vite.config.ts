// The admin UI's build: `npm run build:ui` (part of `npm run build`) writes dist/ui, which app/ui.ts serves.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const uiRoot = path.dirname(fileURLToPath(import.meta.url));
const outDir = path.resolve(uiRoot, '..', 'dist', 'ui');

/**
 * Writes `.br` and `.gz` copies beside every text asset once, at build time, so that the service sends them
 * compressed without compressing per request (@fastify/static's `preCompressed`).
 */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(file.fileName)) continue;
        const content = Buffer.from(file.type === 'chunk' ? file.code : file.source);
        if (content.length < 1024) continue;
        const target = path.join(options.dir ?? outDir, file.fileName);
        writeFileSync(`${target}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${target}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  root: uiRoot,
  base: '/',
  // Nothing is fetched from elsewhere at run time: fonts and icons are bundled from node_modules.
  build: {
    outDir,
    emptyOutDir: true,
    assetsDir: 'assets',
    chunkSizeWarningLimit: 600,
    reportCompressedSize: false,
    rolldownOptions: {
      // Mantine's modules start with "use client" (for React Server Components), meaningless in a plain bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  plugins: [precompress()],
});
