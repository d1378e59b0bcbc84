/** The transaction countdown's words: what it shows and what its polite live region says. */

/** Seconds left at which the live region speaks (and only then). */
const THRESHOLDS = [300, 120, 60, 30, 10] as const;

export function formatRemaining(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${String(minutes).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}

/** What the polite live region says when `seconds` are left: only at a threshold, else nothing new. */
export function announcementAt(seconds: number): string | undefined {
  const threshold = THRESHOLDS.find((t) => seconds <= t && seconds > t - 1);
  if (threshold === undefined) return undefined;
  if (threshold >= 60) {
    const minutes = threshold / 60;
    return `The transaction expires in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  }
  return `The transaction expires in ${threshold} seconds.`;
}
