// Dates as people read them, in the window's language: "12 Mar 2026, 14:05" and "in 40 minutes" /
// "3 hours ago" (Chinese: "2026年3月12日 14:05", "40分钟后").
import { intlLocale } from "./i18n.svelte";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** An ISO timestamp as a local date and time. */
export function formatDateTime(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

/** An ISO timestamp as a local date. */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: "medium" }).format(new Date(iso));
}

/** A calendar day `YYYY-MM-DD` as a local date, never shifted by the time zone. */
export function formatDay(ymd: string): string {
  const [y, m, d] = ymd.split("-").map(Number);
  if (!y || !m || !d) return ymd;
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: "medium" }).format(new Date(y, m - 1, d));
}

/** A time of day, e.g. "14:05:09". */
export function formatTime(at: Date): string {
  return new Intl.DateTimeFormat(intlLocale(), { timeStyle: "medium" }).format(at);
}

/** An ISO timestamp relative to `now`, e.g. "in 40 minutes", "3 days ago", "now". */
export function formatRelative(iso: string, now: Date = new Date()): string {
  const relative = new Intl.RelativeTimeFormat(intlLocale(), { numeric: "auto" });
  const seconds = Math.round((new Date(iso).getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(0, "second");
}
