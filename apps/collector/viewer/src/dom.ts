/** Anything `h` accepts as a child; falsy values are skipped so conditions read inline. */
export type Child = Node | string | number | null | undefined | false | Child[];

type Props = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

function apply(el: Element, props: Props | undefined): void {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (typeof value === 'function') el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (value === true) el.setAttribute(key, '');
    else if (value !== false && value !== undefined) el.setAttribute(key, String(value));
  }
}

/** Builds an element; text is always a text node, so record content can never become markup. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props?: Props,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, props);
  append(el, children);
  return el;
}

/** The SVG counterpart of `h`, for the latency chart. */
export function svg(tag: string, props?: Props, ...children: Child[]): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  apply(el, props);
  append(el, children);
  return el;
}

/** Replaces a node's children. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/**
 * Asks in `box` whether to forget something for good: the question, then a "Yes, forget it"
 * and a "Keep it" button, "Keep it" focused. The caller says what each button does.
 */
export function askToForget(
  box: Element,
  question: string,
): { yes: HTMLButtonElement; no: HTMLButtonElement } {
  const yes = h('button', { type: 'button', class: 'danger' }, 'Yes, forget it');
  const no = h('button', { type: 'button', class: 'secondary' }, 'Keep it');
  fill(box, h('span', {}, question), yes, no);
  no.focus();
  return { yes, no };
}
