/**
 * The one ordering used for listed records, so SQLite and PostgreSQL (whose collations differ) answer
 * the same: case-insensitive first, then exact code units, then id as the final tie-break.
 */
export function compareByText<T extends { id: number }>(text: (item: T) => string) {
  return (a: T, b: T): number => {
    const left = text(a);
    const right = text(b);
    const folded = compareCodeUnits(left.toLowerCase(), right.toLowerCase());
    if (folded !== 0) return folded;
    const exact = compareCodeUnits(left, right);
    return exact !== 0 ? exact : a.id - b.id;
  };
}

/**
 * `items` sorted in place in the order of {@link compareByText}, lower-casing each text once rather than
 * twice per comparison. Returns `items`.
 */
export function sortByText<T extends { id: number }>(items: T[], text: (item: T) => string): T[] {
  const keyed = items.map((item) => {
    const exact = text(item);
    return { item, exact, folded: exact.toLowerCase() };
  });
  keyed.sort(
    (a, b) =>
      compareCodeUnits(a.folded, b.folded) || compareCodeUnits(a.exact, b.exact) || a.item.id - b.item.id,
  );
  keyed.forEach((entry, i) => {
    items[i] = entry.item;
  });
  return items;
}

export function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
