// A config load's failure crosses from the loading worker to the main thread as plain data and
// comes back as the same kind of error: the report (and its exit code, and whether it is called a
// bug of notiform) must not depend on which thread loaded the config.
import { describe, expect, it } from "vitest";
import { deserializeLoadError, serializeLoadError } from "../../src/config/load-messages.js";
import { ConfigError, InternalError, NotiformError } from "../../src/errors.js";

/** Through the structured clone a worker's message takes. */
const across = (error: unknown) => deserializeLoadError(structuredClone(serializeLoadError(error)));

describe("a config load's failure across threads", () => {
  it("a ConfigError keeps its problems, their positions and the values to mask", () => {
    const problem = {
      severity: "error" as const,
      rule: "schema",
      message: "topics[1].key: must match the pattern",
      pos: { file: "notiform.yaml", line: 6, col: 10 },
    };
    const back = across(new ConfigError([problem], "the configuration is not valid", ["s3cret"]));
    expect(back).toBeInstanceOf(ConfigError);
    expect((back as ConfigError).problems).toEqual([problem]);
    expect((back as ConfigError).sensitive).toEqual(["s3cret"]);
    expect((back as ConfigError).code).toBe("CONFIG_INVALID");
  });

  it("a NotiformError keeps its code, message, hint and position", () => {
    const back = across(
      new NotiformError("CONFIG_NOT_FOUND", "config file x.yaml not found", {
        hint: "Create it",
        pos: { file: "x.yaml", line: 1, col: 1 },
      }),
    );
    expect(back).toBeInstanceOf(NotiformError);
    expect(back).not.toBeInstanceOf(InternalError);
    expect(back).toMatchObject({
      code: "CONFIG_NOT_FOUND",
      message: "config file x.yaml not found",
      hint: "Create it",
      pos: { file: "x.yaml", line: 1, col: 1 },
    });
  });

  it("a bug stays a bug: an InternalError, or an untyped error, is not made a typed one", () => {
    const internal = across(new InternalError("an impossible state"));
    expect(internal).toBeInstanceOf(InternalError);
    expect(internal.message).toBe("an impossible state");
    const untyped = across(new TypeError("x is not a function"));
    expect(untyped).not.toBeInstanceOf(NotiformError);
    expect(untyped.message).toBe("x is not a function");
    expect(across("thrown text").message).toBe("thrown text");
  });
});
