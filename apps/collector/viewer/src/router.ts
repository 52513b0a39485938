/** Hash routes: `#/live`, `#/memories?…`, `#/memories/<id>`, `#/projects`, `#/health`. */
export interface Route {
  path: string[];
  params: URLSearchParams;
}

export function currentRoute(): Route {
  const hash = location.hash.replace(/^#\/?/, '');
  const [path = '', query = ''] = hash.split('?', 2);
  return {
    path: path.split('/').filter(Boolean).map(decodeURIComponent),
    params: new URLSearchParams(query),
  };
}

export function go(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

let pending: string | undefined;

/** A one-line notice shown on the next screen (e.g. after a delete navigates away). */
export function flash(message?: string): string | undefined {
  if (message !== undefined) {
    pending = message;
    return undefined;
  }
  const taken = pending;
  pending = undefined;
  return taken;
}
