// Dates as the back office shows them: India time, day month year and the time.
const format = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' });

/** An epoch-seconds time (or an ISO text) in India time. */
export function when(at: number | string): string {
  const date = typeof at === 'number' ? new Date(at * 1000) : new Date(at);
  return Number.isNaN(date.getTime()) ? String(at) : format.format(date);
}
