/**
 * A list that keeps only the rows in view (plus a margin) in the DOM: every row has one
 * height, so the row at a scroll offset is a division. 10,000 runs or 5,000 steps cost the
 * same few dozen elements; `update` swaps the data without losing the scroll position.
 */
export interface VirtualList<T> {
  el: HTMLElement;
  update(items: readonly T[]): void;
}

export function virtualList<T>(rowHeight: number, render: (item: T, index: number) => HTMLElement): VirtualList<T> {
  const el = document.createElement("div");
  el.className = "vlist";
  const spacer = document.createElement("div");
  spacer.className = "vlist-spacer";
  const rows = document.createElement("div");
  rows.className = "vlist-rows";
  el.append(spacer);
  spacer.append(rows);
  let items: readonly T[] = [];
  let drawn = "";
  const draw = (force: boolean) => {
    const first = Math.max(0, Math.floor(el.scrollTop / rowHeight) - 10);
    const count = Math.ceil((el.clientHeight || 600) / rowHeight) + 20;
    const last = Math.min(items.length, first + count);
    const key = `${first}:${last}`;
    if (!force && key === drawn) return;
    drawn = key;
    rows.style.transform = `translateY(${first * rowHeight}px)`;
    rows.replaceChildren(...items.slice(first, last).map((it, i) => {
      const row = render(it, first + i);
      row.style.height = `${rowHeight}px`;
      return row;
    }));
  };
  el.addEventListener("scroll", () => draw(false), { passive: true });
  return {
    el,
    update(next) {
      items = next;
      spacer.style.height = `${items.length * rowHeight}px`;
      draw(true);
    },
  };
}
