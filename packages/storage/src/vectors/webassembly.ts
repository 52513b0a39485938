/**
 * The few WebAssembly globals the vector scan uses, typed here: the package compiles
 * without the DOM library, which is where TypeScript declares them.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

export const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
