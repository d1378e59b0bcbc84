import { describe, expect, it } from 'vitest';
import { compareByText, sortByText } from './compare.js';

interface Item {
  id: number;
  text: string;
}

describe('sortByText', () => {
  it('orders case-insensitively, then by code units, then by id', () => {
    const items: Item[] = [
      { id: 4, text: 'b' },
      { id: 3, text: 'B' },
      { id: 2, text: 'a' },
      { id: 5, text: 'B' },
      { id: 1, text: 'A' },
    ];
    expect(sortByText(items, (item) => item.text).map((item) => item.id)).toEqual([1, 2, 3, 5, 4]);
  });

  it('gives exactly the order of compareByText', () => {
    const alphabet = ['a', 'A', 'b', 'B', 'é', 'É', 'ß', 'z', '_', ' ', '1', 'İ', 'ı', '😀'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const items: Item[] = Array.from({ length: 500 }, (_, i) => ({
      id: i + 1,
      text: Array.from({ length: 1 + (next() % 4) }, () => alphabet[next() % alphabet.length]).join(''),
    }));
    const expected = [...items].sort(compareByText((item) => item.text));
    const shuffled = [...items].reverse();
    expect(sortByText(shuffled, (item) => item.text)).toEqual(expected);
  });
});
