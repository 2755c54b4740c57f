import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";

/**
 * Writes `.vite/chunks.json` into the build: every JS chunk with its modules and imports, so the
 * budget test can see what the lobby's entry loads and that each game stays in a lazy chunk.
 */
function chunkReport(): Plugin {
  return {
    name: "casino-chunk-report",
    apply: "build",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle)
        .filter((item) => item.type === "chunk")
        .map((chunk) => ({
          fileName: chunk.fileName,
          isEntry: chunk.isEntry,
          isDynamicEntry: chunk.isDynamicEntry,
          imports: chunk.imports,
          dynamicImports: chunk.dynamicImports,
          modules: chunk.moduleIds.map((id) =>
            relative(import.meta.dirname, id.replace(/^\0/, ""))
              .split("\\")
              .join("/"),
          ),
          sizes: Object.fromEntries(
            Object.entries(chunk.modules).map(([id, m]) => [
              relative(import.meta.dirname, id.replace(/^\0/, ""))
                .split("\\")
                .join("/"),
              m.renderedLength,
            ]),
          ),
        }));
      this.emitFile({ type: "asset", fileName: ".vite/chunks.json", source: JSON.stringify(chunks, null, 1) });
    },
  };
}

/** Text assets worth compressing: the server's static layer sends these as `.br`/`.gz` twins. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) twin next to every text asset of the
 * build of 1 kB or more, where it is smaller. Compressing once at build time, at the highest levels,
 * costs the server nothing per request (express-static-gzip picks the twin by Accept-Encoding).
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "casino-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir.startsWith("/") ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          if (name.startsWith(".")) return [];
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir).filter((f) => COMPRESSIBLE.test(f))) {
        const source = readFileSync(file);
        if (source.length < 1024) continue;
        const br = brotliCompressSync(source, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length },
        });
        const gz = gzipSync(source, { level: 9 });
        if (br.length < source.length) writeFileSync(`${file}.br`, br);
        if (gz.length < source.length) writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), chunkReport(), precompress()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one chunk: left to itself the bundler split
          // the modules lazy chunks share with it (React, the stores, the API client) into nine small
          // chunks, each one more request before the lobby can start.
          groups: [{ name: "lobby", tags: ["$initial"], priority: 10 }],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": "http://localhost:2567",
      "/matchmake": { target: "http://localhost:2567", ws: true },
    },
  },
});
