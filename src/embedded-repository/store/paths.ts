// Arithmetic on repository paths: relative to the root, without slashes at either end, '' for the root.
// Shared by the store (parents, subtrees, tombstoned ancestors) and the HTTP layer (naming new children),
// so it lives with the store rather than in http/.

export function parentOf(path: string): string | null {
  if (path === '') return null;
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

/** The path itself and every ancestor up to the root (''), nearest first. */
export function selfAndAncestors(path: string): string[] {
  const result: string[] = [path];
  let current: string | null = parentOf(path);
  while (current !== null) {
    result.push(current);
    current = parentOf(current);
  }
  return result;
}

export function childPath(parent: string, segment: string): string {
  return parent === '' ? segment : `${parent}/${segment}`;
}

/** Whether `path` is `ancestor` or below it. */
export function isWithin(path: string, ancestor: string): boolean {
  return ancestor === '' || path === ancestor || path.startsWith(`${ancestor}/`);
}
