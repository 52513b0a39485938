/**
 * Memory restated is not memory: an agent that answered from the context it was given makes
 * a turn whose record is the question plus what an older record said. Asked again, that
 * record ranks first (it has the question's words and the answer's), the repeat rule then
 * drops the older record, which holds more, and the noise floor measured against it cuts
 * the rest. So the restatement goes, and the record it restates stands where it ranks on
 * its own, as it did when the question was first asked (see `restates` for what counts).
 */
import { restates } from './echo.js';
import type { MergedHit } from './remote.js';

/** Hits without the local records that restate another local hit. */
export function withoutRestatements(
  hits: readonly MergedHit[],
  stems: ReadonlySet<string>,
): MergedHit[] {
  const local = hits.filter((hit) => !hit.remote);
  const restated = new Set<MergedHit>();
  for (const hit of local) {
    if (hit.record.files_touched.length > 0) continue;
    const older = local.find(
      (other) => other !== hit && !restated.has(other) && restates(hit.record, other.record, stems),
    );
    if (older) restated.add(hit);
  }
  return restated.size === 0 ? [...hits] : hits.filter((hit) => !restated.has(hit));
}
