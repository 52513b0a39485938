// This CPU's GEMM rate through onnxruntime on one thread, at all-MiniLM-L6-v2's shapes: the
// ceiling an embedding run is held against. Shared by the package's bench (embed.ts) and
// the collector's reindex bench. `node gemm.ts` prints `{ fp32, int8 }` in GFLOP/s (run as
// a child process, so several can run at once, one per core).
import { fileURLToPath } from 'node:url';
import { DataType, encodeModel } from '../src/onnx-proto.ts';

/** all-MiniLM-L6-v2's shape: the work of one text is in its dense layers and attention. */
export const MODEL = { hidden: 384, inner: 1536, layers: 6 };

/**
 * Floating-point operations to embed a text of `t` tokens (multiply-adds count two), split
 * as the int8 graph runs them: `quantized` in int8 GEMMs (the Q/K/V, attention output and
 * FFN up-projections), `float` in fp32 (each FFN down-projection and the attention itself).
 */
export function flopsPerText(t: number): { quantized: number; float: number; total: number } {
  const { hidden, inner, layers } = MODEL;
  const quantized = 2 * t * layers * (4 * hidden ** 2 + hidden * inner);
  const down = 2 * t * layers * hidden * inner;
  const attention = 2 * 2 * t * t * hidden * layers;
  return { quantized, float: down + attention, total: quantized + down + attention };
}

/** Seconds of GEMM a text of `t` tokens needs at these rates (GFLOP/s), in `precision`. */
export function gemmSeconds(
  t: number,
  precision: 'fp32' | 'int8',
  rate: { fp32: number; int8: number },
): number {
  const f = flopsPerText(t);
  return precision === 'fp32'
    ? f.total / (rate.fp32 * 1e9)
    : f.quantized / (rate.int8 * 1e9) + f.float / (rate.fp32 * 1e9);
}

/** GEMM rates of one thread, fp32 and int8, in GFLOP/s. */
export interface GemmRates {
  fp32: number;
  int8: number;
  /**
   * GFLOP per CPU-second of the process (best round): what the core does in the time it
   * is given, steadier than wall-clock rates on a machine shared with other work.
   */
  cpu: { fp32: number; int8: number };
}

/** GFLOP/s of a 128×384×1536 GEMM on one thread, fp32 and int8 (best of `rounds`). */
export async function gemmRates(rounds = 7): Promise<GemmRates> {
  const ort = await import('onnxruntime-node');
  const [m, k, n] = [128, MODEL.hidden, MODEL.inner];
  const rate = async (precision: 'fp32' | 'int8') => {
    const weights =
      precision === 'fp32'
        ? {
            name: 'B',
            dims: [k, n],
            type: DataType.FLOAT,
            raw: new Uint8Array(Float32Array.from({ length: k * n }, () => Math.random()).buffer),
          }
        : {
            name: 'B',
            dims: [k, n],
            type: DataType.INT8,
            raw: Uint8Array.from({ length: k * n }, () => Math.floor(Math.random() * 127)),
          };
    const scale = {
      name: 'S',
      dims: [n],
      type: DataType.FLOAT,
      raw: new Uint8Array(new Float32Array(n).fill(0.01).buffer),
    };
    const model = encodeModel({
      opset: 20,
      ...(precision === 'int8' ? { domains: ['com.microsoft'] } : {}),
      nodes:
        precision === 'fp32'
          ? [{ op: 'MatMul', inputs: ['A', 'B'], outputs: ['C'] }]
          : [
              {
                op: 'DynamicQuantizeMatMul',
                domain: 'com.microsoft',
                inputs: ['A', 'B', 'S'],
                outputs: ['C'],
              },
            ],
      initializers: precision === 'fp32' ? [weights] : [weights, scale],
      inputs: [{ name: 'A', type: DataType.FLOAT, shape: [m, k] }],
      outputs: [{ name: 'C', type: DataType.FLOAT, shape: [m, n] }],
    });
    const session = await ort.InferenceSession.create(model, {
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      logSeverityLevel: 3,
    });
    const a = new ort.Tensor(
      'float32',
      Float32Array.from({ length: m * k }, () => Math.random() - 0.5),
      [m, k],
    );
    for (let i = 0; i < 20; i++) await session.run({ A: a });
    // Best of several rounds: the ceiling is what the core does when it gets the time.
    let best = 0;
    let bestCpu = 0;
    for (let round = 0; round < rounds; round++) {
      const runs = 100;
      const t = performance.now();
      const cpu = process.cpuUsage();
      for (let i = 0; i < runs; i++) await session.run({ A: a });
      const used = process.cpuUsage(cpu);
      const seconds = (performance.now() - t) / 1000;
      const gflop = (runs * 2 * m * k * n) / 1e9;
      best = Math.max(best, gflop / seconds);
      bestCpu = Math.max(bestCpu, gflop / ((used.user + used.system) / 1e6));
    }
    await session.release();
    return { wall: best, cpu: bestCpu };
  };
  const fp32 = await rate('fp32');
  const int8 = await rate('int8');
  return { fp32: fp32.wall, int8: int8.wall, cpu: { fp32: fp32.cpu, int8: int8.cpu } };
}

/** This file, to run as a child process (`node <gemmScript> [rounds]`). */
export const gemmScript = fileURLToPath(import.meta.url);

if (process.argv[1] === gemmScript) {
  process.stdout.write(JSON.stringify(await gemmRates(Number(process.argv[2] ?? 7))));
}
