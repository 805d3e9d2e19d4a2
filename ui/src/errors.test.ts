// How a command's rejection becomes an AppError, and that every code Rust can send has words.
import { describe, expect, it } from "vitest";
import { AppError, ERROR_CODES, headline, needsSignIn, nextStep, toAppError } from "./errors";
import { setLocale } from "./i18n.svelte";

describe("toAppError", () => {
  it("keeps a code Rust sends with its message", () => {
    const error = toAppError({ code: "session_expired", message: "Garmin refused the session" });
    expect(error).toBeInstanceOf(AppError);
    expect([error.code, error.message]).toEqual(["session_expired", "Garmin refused the session"]);
  });

  it("turns an unknown code, a bare string or an Error into `other` with its words", () => {
    expect(toAppError({ code: "teapot", message: "short and stout" }).code).toBe("other");
    expect(toAppError("the window is gone")).toMatchObject({ code: "other", message: "the window is gone" });
    expect(toAppError(new Error("boom"))).toMatchObject({ code: "other", message: "boom" });
    expect(toAppError({ code: "network" }).code).toBe("other");
  });

  it("passes an AppError through unchanged", () => {
    const error = new AppError("wrong_site", "the other site");
    expect(toAppError(error)).toBe(error);
  });
});

describe("the words for each code", () => {
  it.each(["en", "zh"] as const)("every code Rust declares has a headline and a next step in %s", (locale) => {
    setLocale(locale);
    for (const code of ERROR_CODES) {
      expect(headline(code), code).not.toMatch(/^error\./);
      expect(nextStep(code), code).not.toMatch(/^error\./);
      expect(headline(code)).not.toBe(nextStep(code));
    }
    setLocale("en");
  });

  it("only a missing or refused session asks to sign in", () => {
    expect(ERROR_CODES.filter(needsSignIn)).toEqual(["not_signed_in", "session_expired"]);
  });
});
