import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * A shared read, built and compiled by kysely once per shape, its values bound per call.
 * Building and compiling a query cost more than the small indexed reads retrieval makes on
 * every prompt (a session's entries, its notes), so SQLite kept hand-written copies of
 * them; compiled once, the shared builder is as cheap and there is one copy of the SQL.
 *
 * `build` gets a stand-in for each value (what kysely compiles into a parameter) and may
 * depend only on which values are defined: the shape is the name and the defined keys.
 */
export function compileOnce<DB, V extends Record<string, unknown>, R>(
  db: Kysely<DB>,
  name: string,
  values: V,
  build: (slots: { [K in keyof V]-?: NonNullable<V[K]> }) => Compilable<R>,
): CompiledQuery<R> {
  let shape = name;
  for (const key in values) if (values[key] !== undefined) shape += `|${key}`;
  let byShape = templates.get(db);
  if (!byShape) {
    byShape = new Map();
    templates.set(db, byShape);
  }
  let template = byShape.get(shape) as Template<R> | undefined;
  if (!template) {
    const slots: Record<string, Slot> = {};
    for (const key in values) slots[key] = new Slot(key);
    const compiled = build(slots as unknown as { [K in keyof V]-?: NonNullable<V[K]> }).compile();
    template = {
      compiled,
      keys: compiled.parameters.map((p) => (p instanceof Slot ? p.key : undefined)),
    };
    byShape.set(shape, template);
  }
  const { compiled, keys } = template;
  return {
    query: compiled.query,
    queryId: compiled.queryId,
    sql: compiled.sql,
    parameters: keys.map((key, i) => (key === undefined ? compiled.parameters[i] : values[key])),
  };
}

/** Runs a compiled read: SQLite synchronously through its statement cache, PostgreSQL through kysely. */
export type RunCompiled = <R>(query: CompiledQuery<R>) => R[] | Promise<R[]>;

/** kysely's own execution of a compiled query (what PostgreSQL uses). */
export const runWithKysely =
  <DB>(db: Kysely<DB>): RunCompiled =>
  async <R>(query: CompiledQuery<R>) =>
    (await db.executeQuery(query)).rows;

/** A value's place in a query compiled once (kysely passes it through as a parameter). */
class Slot {
  readonly key: string;
  constructor(key: string) {
    this.key = key;
  }
}

interface Template<R> {
  compiled: CompiledQuery<R>;
  /** Per parameter: the value's key, or undefined for a constant the builder wrote itself. */
  keys: Array<string | undefined>;
}

/** Per database (a dialect compiles its own SQL), per shape. */
const templates = new WeakMap<object, Map<string, Template<unknown>>>();
