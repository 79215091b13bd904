import { afterAll, describe, expect, it } from "vitest";
import { SpecSizer } from "../src/sizer.js";
import { validateSolveRequest } from "../src/spec.js";
import { HEADS_UP_JAM_FOLD } from "./fixtures.js";

const sizer = new SpecSizer({ timeoutMs: 120_000 });
afterAll(() => sizer.close());

describe("field limits, before any tree is built", () => {
  it.each([
    [{ maxRaises: 10, maxCallersToRaise: 8 }, /changes\.maxRaises must be an integer from 1 to 5/],
    [{ maxRaises: 0 }, /changes\.maxRaises must be an integer from 1 to 5/],
    [{ maxCallersToRaise: 8 }, /changes\.maxCallersToRaise must be an integer from 0 to 7 .*9 seats/],
    [{ allInFrom: 2.5 }, /changes\.allInFrom must be an integer from 1 to 6/],
    [{ open: [40060, 40070, 40080, 40090, 40100, 40110, 40120] }, /changes\.open must be a list of up to 6/],
  ])("refuses %j on nl9", (changes, message) => {
    expect(() => validateSolveRequest({ game: "nl9", stack: 1000, changes })).toThrow(message);
  });

  it("applies the same limits to a whole config", () => {
    const config = validateSolveRequest({ game: "nlmtt8", stack: 20 }).config;
    const profile = { ...config.profiles[0]!, maxRaises: 9 };
    expect(() => validateSolveRequest({ config: { ...config, profiles: [profile] }, stack: 20 })).toThrow(
      /config\.profiles\[0\]\.maxRaises must be an integer from 1 to 5/,
    );
  });

  it("stops sizing a multiway tree at the budget with a clear refusal", () => {
    expect(() =>
      validateSolveRequest({ game: "nl9", stack: 100, changes: { maxCallersToRaise: 7, maxRaises: 5 } }),
    ).toThrow(/too large to solve here: it has more than 400,000 showdown pairings/);
  });
});

describe("SpecSizer", () => {
  it("sizes on its thread what validateSolveRequest sizes in place", async () => {
    const spec = await sizer.size(HEADS_UP_JAM_FOLD, "alice");
    expect(spec).toEqual(validateSolveRequest(HEADS_UP_JAM_FOLD));
  });

  it("answers the thread's refusals as the same errors", async () => {
    await expect(sizer.size({ game: "plo", stack: 100 }, "alice")).rejects.toMatchObject({
      code: "invalid_parameter",
      status: 400,
      message: expect.stringMatching(/"game" must be one of/),
    });
  });

  it("holds one request per caller: a second while the first is sized is refused with 429", async () => {
    const big = sizer.size(
      { game: "nl9", stack: 100, changes: { maxCallersToRaise: 7, maxRaises: 5 } },
      "bob",
    );
    await expect(sizer.size(HEADS_UP_JAM_FOLD, "bob")).rejects.toMatchObject({ code: "rate_limited" });
    // Another caller waits its turn and is answered.
    const other = sizer.size(HEADS_UP_JAM_FOLD, "carol");
    await expect(big).rejects.toThrow(/too large to solve here/);
    expect((await other).decisions).toBe(6);
  });

  it("refuses a sizing over its heap cap and replaces the thread", async () => {
    const small = new SpecSizer({ heapMb: 16, timeoutMs: 120_000 });
    try {
      await expect(
        small.size({ game: "nl9", stack: 100, changes: { maxCallersToRaise: 3 } }, "dave"),
      ).rejects.toThrow(/too large to solve here: sizing it needed more than 16 MiB/);
      expect((await small.size(HEADS_UP_JAM_FOLD, "dave")).decisions).toBe(6);
    } finally {
      await small.close();
    }
  });
});
