/**
 * Just enough of ONNX's protobuf encoding to write a model (ModelProto) in memory: the
 * default model ships as safetensors weights, and onnxruntime needs a graph.
 * Field numbers are those of onnx.proto3.
 */

/** A growable protobuf writer. */
class Writer {
  #chunks: Uint8Array[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  #push(bytes: Uint8Array): void {
    this.#chunks.push(bytes);
    this.#length += bytes.byteLength;
  }

  varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v !== 0n) byte |= 0x80;
      out.push(byte);
    } while (v !== 0n);
    this.#push(Uint8Array.from(out));
  }

  tag(field: number, wire: 0 | 2 | 5): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number | bigint): void {
    this.tag(field, 0);
    this.varint(value);
  }

  float(field: number, value: number): void {
    this.tag(field, 5);
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    this.#push(bytes);
  }

  bytes(field: number, value: Uint8Array): void {
    this.tag(field, 2);
    this.varint(value.byteLength);
    this.#push(value);
  }

  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, write: (w: Writer) => void): void {
    const inner = new Writer();
    write(inner);
    this.tag(field, 2);
    this.varint(inner.length);
    for (const chunk of inner.#chunks) this.#push(chunk);
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.#length);
    let offset = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }
}

/** ONNX tensor element types used here. */
export const DataType = { FLOAT: 1, INT8: 3, INT64: 7, FLOAT16: 10 } as const;

/** A constant tensor of the graph. */
export interface Initializer {
  name: string;
  dims: number[];
  type: (typeof DataType)[keyof typeof DataType];
  raw: Uint8Array;
}

/** An attribute value: int, float, string or a list of ints. */
export type AttributeValue = number | string | number[] | { float: number };

/** One operator of the graph. */
export interface Node {
  op: string;
  /** The operator's domain: omitted for ONNX's own, `com.microsoft` for onnxruntime's. */
  domain?: string;
  inputs: string[];
  outputs: string[];
  attributes?: Record<string, AttributeValue>;
}

/** A graph input or output with its element type and shape (string = symbolic dimension). */
export interface ValueInfo {
  name: string;
  type: (typeof DataType)[keyof typeof DataType];
  shape: Array<number | string>;
}

/** A whole model: one graph in the default ONNX domain at `opset`. */
export interface Graph {
  opset: number;
  /** Other operator domains the graph uses, each at version 1 (e.g. `com.microsoft`). */
  domains?: string[];
  nodes: Node[];
  initializers: Initializer[];
  inputs: ValueInfo[];
  outputs: ValueInfo[];
}

/** Serialises a model to ONNX bytes. */
export function encodeModel(graph: Graph): Uint8Array {
  const w = new Writer();
  w.int(1, 9); // ir_version 9 (opset ≥ 20 needs it)
  w.string(2, 'kiro-learn');
  w.message(7, (g) => {
    graph.nodes.forEach((node, i) => {
      g.message(1, (n) => {
        for (const input of node.inputs) n.string(1, input);
        for (const output of node.outputs) n.string(2, output);
        n.string(3, `${node.op}_${i}`);
        n.string(4, node.op);
        if (node.domain) n.string(7, node.domain);
        for (const [name, value] of Object.entries(node.attributes ?? {})) {
          n.message(5, (a) => writeAttribute(a, name, value));
        }
      });
    });
    g.string(2, 'graph');
    for (const init of graph.initializers) {
      g.message(5, (t) => {
        for (const dim of init.dims) t.int(1, dim);
        t.int(2, init.type);
        t.string(8, init.name);
        t.bytes(9, init.raw);
      });
    }
    for (const input of graph.inputs) g.message(11, (v) => writeValueInfo(v, input));
    for (const output of graph.outputs) g.message(12, (v) => writeValueInfo(v, output));
  });
  w.message(8, (o) => {
    o.string(1, '');
    o.int(2, graph.opset);
  });
  for (const domain of graph.domains ?? []) {
    w.message(8, (o) => {
      o.string(1, domain);
      o.int(2, 1);
    });
  }
  return w.finish();
}

function writeAttribute(a: Writer, name: string, value: AttributeValue): void {
  a.string(1, name);
  if (typeof value === 'number') {
    a.int(3, value);
    a.int(20, 2); // INT
  } else if (typeof value === 'string') {
    a.string(4, value);
    a.int(20, 3); // STRING
  } else if (Array.isArray(value)) {
    for (const v of value) a.int(8, v);
    a.int(20, 7); // INTS
  } else {
    a.float(2, value.float);
    a.int(20, 1); // FLOAT
  }
}

function writeValueInfo(v: Writer, info: ValueInfo): void {
  v.string(1, info.name);
  v.message(2, (type) => {
    type.message(1, (tensor) => {
      tensor.int(1, info.type);
      tensor.message(2, (shape) => {
        for (const dim of info.shape) {
          shape.message(1, (d) => {
            if (typeof dim === 'number') d.int(1, dim);
            else d.string(2, dim);
          });
        }
      });
    });
  });
}
