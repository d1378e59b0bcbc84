/**
 * Hands a downloaded Blob to the browser as a file to save. Downloads that need the session's token
 * cannot be plain links (the token is never put in a URL): they are fetched, then saved through a
 * temporary object URL and `<a download>`.
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later, not at once: the browser may still be reading the URL when click() returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
