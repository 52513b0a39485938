import { createRequire } from 'node:module';

/**
 * How much slower the WASM engine embeds than onnxruntime-node (MiniLM, one thread: 4-5x
 * for a prompt and a record in `pnpm bench` on a shared machine, more on an idle one).
 */
export const WASM_SLOWDOWN = '5 to 10 times';

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
