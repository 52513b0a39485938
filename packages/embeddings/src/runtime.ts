import { createRequire } from 'node:module';

/**
 * How much slower the WASM engine embeds than onnxruntime-node (MiniLM, one thread, int8 on
 * onnxruntime: 12× for a ~230-token record and 15× in records/s, 30× for a prompt, in
 * `pnpm bench` on the project's 2-core machine; 10× on an earlier one without VNNI).
 */
export const WASM_SLOWDOWN = '10 to 30 times';

/**
 * Whether onnxruntime-node, the fast runtime, is installed beside this package: a plain
 * `npm install -g` drops it without a word when its install script cannot reach its
 * download host. Resolving it is cheap; whether it loads on this platform is known only
 * once a model loads (`Embedder.fallbackReason`).
 */
export function fastRuntimeInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('onnxruntime-node');
    return true;
  } catch {
    return false;
  }
}
