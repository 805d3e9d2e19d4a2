// Dates as people read them, in the window's language (vitest.config.ts pins the zone to UTC).
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatRelative } from "./format";
import { setLocale } from "./i18n.svelte";

const NOW = new Date("2026-03-12T14:05:00Z");

describe("formatRelative", () => {
  it("says the largest whole unit, ahead or behind", () => {
    setLocale("en");
    expect(formatRelative("2026-03-12T14:45:00Z", NOW)).toBe("in 40 minutes");
    expect(formatRelative("2026-03-12T11:05:00Z", NOW)).toBe("3 hours ago");
    expect(formatRelative("2026-03-09T14:05:00Z", NOW)).toBe("3 days ago");
    expect(formatRelative("2026-03-12T14:05:20Z", NOW)).toBe("now");
  });

  it("speaks Chinese in Chinese", () => {
    setLocale("zh");
    expect(formatRelative("2026-03-12T14:45:00Z", NOW)).toBe("40分钟后");
    setLocale("en");
  });
});

describe("formatDate and formatDateTime", () => {
  it("write the day and time in the window's language", () => {
    setLocale("en");
    expect(formatDate("2026-03-12T14:05:00Z")).toBe("Mar 12, 2026");
    expect(formatDateTime("2026-03-12T14:05:00Z")).toMatch(/^Mar 12, 2026, 2:05\sPM$/);
    setLocale("zh");
    expect(formatDate("2026-03-12T14:05:00Z")).toBe("2026年3月12日");
    setLocale("en");
  });
});
