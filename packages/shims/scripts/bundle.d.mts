/** Bundles the hook entries into `outdir` (default: dist/bin). */
export function bundle(outdir?: string): Promise<unknown>;
