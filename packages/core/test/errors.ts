/** Test helpers for asserting on `RangesError`s (not a test file: vitest only runs `*.test.ts`). */

import { expect } from "vitest";
import { RangesError, type RangesErrorCode } from "../src/index.js";

/** Runs `fn` and returns the `RangesError` it throws; fails when it returns or throws anything else. */
export function catchRangesError(fn: () => unknown): RangesError {
  try {
    fn();
  } catch (error) {
    if (error instanceof RangesError) return error;
    throw error;
  }
  throw new Error("expected a RangesError, but nothing was thrown");
}

/** Asserts that `fn` throws a `RangesError` with this status and code, and returns it. */
export function expectRangesError(fn: () => unknown, status: number, code: RangesErrorCode): RangesError {
  const error = catchRangesError(fn);
  expect({ status: error.status, code: error.code, message: error.message }).toMatchObject({ status, code });
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}
