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

export function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
