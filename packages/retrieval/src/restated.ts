/**
 * Memory restated is not memory: an agent that answered from the context it was given makes
 * a turn whose record is the question plus what an older record said. Asked again, that
 * record ranks first (it has the question's words and the answer's), and the repeat rule
 * then drops the older record, which holds more. So the restatement goes and the record it
 * restates takes its place (see `restates` for what counts).
 */
import { restates } from './echo.js';
import type { MergedHit } from './remote.js';

/**
 * Hits without the records that restate another hit (see `restates`): the older record
 * takes the restatement's place when that was higher. Team hits are left as they are.
 */
export function foldRestatements(
  hits: readonly MergedHit[],
  stems: ReadonlySet<string>,
): MergedHit[] {
  const local = hits.filter((hit) => !hit.remote);
  // The restated record of each restatement: it moves up to the restatement's place.
  const replacedBy = new Map<MergedHit, MergedHit>();
  const moved = new Set<MergedHit>();
  for (const hit of local) {
    if (hit.record.files_touched.length > 0) continue;
    const older = local.find(
      (other) =>
        other !== hit && !replacedBy.has(other) && restates(hit.record, other.record, stems),
    );
    if (older) replacedBy.set(hit, older);
  }
  if (replacedBy.size === 0) return [...hits];
  const out: MergedHit[] = [];
  for (const hit of hits) {
    const older = replacedBy.get(hit);
    if (older === undefined) {
      if (!moved.has(hit)) out.push(hit);
      continue;
    }
    if (moved.has(older) || out.includes(older)) continue;
    moved.add(older);
    out.push({ ...older, score: Math.max(older.score, hit.score) });
  }
  return out;
}
