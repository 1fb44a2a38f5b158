/** How every part of dumpsleuth words a span of time (findings, reports, the UI), so they agree. */

/** `45 s`, `26 min`, `3.5 h`: seconds to two minutes, minutes to two hours, then hours. */
export function durationText(seconds: number): string {
  if (seconds < 120) return `${Number.isInteger(seconds) ? seconds : Number(seconds.toFixed(1))} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}
