// Bundles a capability's production entrypoint (dist/main.js, from tsc) into dist/bundle/main.js.
// Why: Node loads ES modules one by one, and a capability's graph is about 230 of them (zod alone is
// 95), which is most of its start-up time; one bundled file starts in about half the time. Packages
// that read their own files at run time (pdfkit's font metrics, for one) stay external: list them with
// --external and they are loaded from node_modules as usual. Dynamic imports (the kit's lazily loaded
// undici) become separate chunks, still loaded only when used. The output is ASCII (non-ASCII characters
// escaped, JSDoc comments left out): V8 keeps each chunk's source in memory, and one character above
// U+00FF anywhere in it (an arrow in a comment, a Greek label) makes the whole string two bytes a
// character (1.5 MiB of the example capability's idle memory, about 5 MiB of pdf's).
//   node ../../scripts/bundle-entry.mjs [--external pkg,pkg2]   (run in the capability's directory)
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { build } from "rolldown";

/**
 * Bundles `entry` into `outDir` (emptied first); `external` packages are imported at run time. Only ASCII
 * in the output: strings, templates and regular expressions escaped, JSDoc comments left out.
 */
export async function bundleEntry({ entry, outDir, external = [] }) {
  await rm(outDir, { recursive: true, force: true });
  const isExternal = (id) => external.some((name) => id === name || id.startsWith(`${name}/`));
  await build({
    input: entry,
    platform: "node",
    external: isExternal,
    logLevel: "warn",
    output: {
      dir: outDir,
      format: "esm",
      entryFileNames: "[name].js",
      chunkFileNames: "[name]-[hash].js",
      charset: "ascii",
      // Minified: V8 keeps every chunk's source in memory and parses all of it at start. Function and
      // class names are kept, for stack traces and for errors told apart by name.
      minify: true,
      keepNames: true,
      comments: { legal: true, annotation: false, jsdoc: false },
    },
    plugins: [withoutGrpcClients()],
  });
}

const GRPC_CLIENT_STAND_IN = "\0grpc-js-client-stand-in";

/**
 * A capability serves gRPC with the kit's own server and never dials it, but the generated contract
 * (@selu-catalogue/proto) also builds a grpc-js client class for every service when imported, which
 * would bring all of @grpc/grpc-js (half a megabyte of source V8 keeps and parses at start) into the
 * bundle. The contract's imports of grpc-js get a stand-in whose client classes refuse to be constructed;
 * any other importer (the kit bench's bare grpc-js server) gets grpc-js itself.
 */
function withoutGrpcClients() {
  const fromContract = (importer) => importer !== undefined && /[\\/](packages[\\/]proto|@selu-catalogue[\\/]proto)[\\/]/.test(importer);
  return {
    name: "without-grpc-clients",
    resolveId(source, importer) {
      return source === "@grpc/grpc-js" && fromContract(importer) ? GRPC_CLIENT_STAND_IN : null;
    },
    load(id) {
      if (id !== GRPC_CLIENT_STAND_IN) return null;
      return [
        "export class Client { constructor() { throw new Error('gRPC clients are not part of a capability bundle'); } }",
        "export function makeGenericClientConstructor() { return Client; }",
      ].join("\n");
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { external: { type: "string", default: "" } } });
  const external = values.external
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  await bundleEntry({ entry: resolve("dist/main.js"), outDir: resolve("dist/bundle"), external });
}
