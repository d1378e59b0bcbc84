import type { Context } from '../../api/context-types';
import { lastSegment } from './terms';

/** A child as the Children section lists it. */
export interface ChildRow {
  readonly contextUri: string;
  readonly name: string;
  readonly resource: boolean;
}

const byName = (a: ChildRow, b: ChildRow) =>
  a.name.localeCompare(b.name, undefined, { numeric: true }) || a.contextUri.localeCompare(b.contextUri);

/**
 * The context's own list of children, named as it names them (from the index where it holds them, else
 * by the last path segment) and sorted by name: what the section shows when the index cannot answer.
 */
export function contextChildren(context: Context): ChildRow[] {
  return context.children
    .flatMap((child) =>
      child.triple === null
        ? []
        : [
            {
              contextUri: child.triple.object,
              name: child.name ?? lastSegment(child.triple.object),
              resource: child.resource,
            },
          ],
    )
    .sort(byName);
}
