import { relative } from "node:path";
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

export default defineConfig({
  plugins: [react(), tailwindcss(), chunkReport()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
  server: {
    proxy: {
      "/api": "http://localhost:2567",
      "/matchmake": { target: "http://localhost:2567", ws: true },
    },
  },
});
