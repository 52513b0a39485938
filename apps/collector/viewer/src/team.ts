// A team server keeps what members share as records of `/actor/team:<team>/project/<id>/`;
// the viewer names who shared each one. Other collectors have no such records: nothing is
// asked then.
import { api, qs } from './api.js';
import { h } from './dom.js';
import type { MemoryRecord, TeamRecordOrigin } from './types.js';

const isTeamRecord = (record: MemoryRecord) => record.namespace.startsWith('/actor/team:');

/** `shared by alice · team payments`, or empty when the record is no team record. */
export function sharedBy(origin: TeamRecordOrigin | undefined): string {
  return origin ? `shared by ${origin.author} · team ${origin.team}` : '';
}

/** An empty slot for a record's origin, filled by showOrigins. */
export function originSlot(record: MemoryRecord): HTMLElement {
  return h('span', { class: 'origin', 'data-origin': record.record_id });
}

/** Fills the origin slots under `root` for these records (team records only). */
export async function showOrigins(root: HTMLElement, records: MemoryRecord[]): Promise<void> {
  const ids = records.filter(isTeamRecord).map((record) => record.record_id);
  if (ids.length === 0) return;
  let origins: Record<string, TeamRecordOrigin>;
  try {
    origins = await api<Record<string, TeamRecordOrigin>>(
      `/ui/api/team${qs({ ids: ids.join(',') })}`,
    );
  } catch {
    return; // The author is a detail: the records stay listed without it.
  }
  for (const slot of root.querySelectorAll<HTMLElement>('[data-origin]')) {
    const text = sharedBy(origins[slot.dataset['origin'] ?? '']);
    if (text) slot.textContent = ` · ${text}`;
  }
}
