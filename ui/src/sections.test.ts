// Unit tests of the window's navigation (sections.ts). Run: `npm --prefix ui test`.
import { describe, expect, it } from "vitest";
import { SECTIONS, openingSection, sectionForKey } from "./sections";

describe("the navigation's views", () => {
  it("opens on Training when nothing or something unknown was remembered", () => {
    expect(openingSection(null)).toBe("training");
    expect(openingSection(undefined)).toBe("training");
    expect(openingSection("settings")).toBe("training");
  });

  it("opens on the view shown last", () => {
    for (const section of SECTIONS) expect(openingSection(section)).toBe(section);
  });

  it("moves with the arrow keys, wrapping at both ends", () => {
    expect(sectionForKey("training", "ArrowRight")).toBe("workouts");
    expect(sectionForKey("training", "ArrowLeft")).toBe("account");
    expect(sectionForKey("account", "ArrowDown")).toBe("training");
    expect(sectionForKey("workouts", "ArrowUp")).toBe("training");
  });

  it("jumps to the first and last view with Home and End, and leaves other keys alone", () => {
    expect(sectionForKey("remote", "Home")).toBe("training");
    expect(sectionForKey("workouts", "End")).toBe("account");
    expect(sectionForKey("workouts", "Enter")).toBeNull();
    expect(sectionForKey("workouts", "a")).toBeNull();
  });
});
