/**
 * The output schemas the hand tools share: the analysis envelope (with its coverage), money, rates, result
 * lines and the totals of a comparison with the equilibrium.
 */

import { z } from "zod";

const CoverageSchema = z.object({
  status: z.enum(["exact", "aggregated_report"]),
  dataClass: z.literal("uploaded_hands"),
  objective: z.literal("observed_results"),
});

export const coverage = (status: "exact" | "aggregated_report") => ({
  status,
  dataClass: "uploaded_hands" as const,
  objective: "observed_results" as const,
});

export const envelope = <R extends z.ZodRawShape, C extends z.ZodRawShape>(context: C, result: R) =>
  z.object({
    schemaVersion: z.literal("1.0"),
    coverage: CoverageSchema,
    context: z.object({ filters: z.record(z.string(), z.unknown()), ...context }),
    result: z.object(result),
    warnings: z.array(z.string()),
  });

export const MoneySchema = z.object({
  unit: z.string().describe("USD, EUR, GBP, chips (tournaments) or play money."),
  amount: z.number(),
});

export const RateSchema = z.object({
  n: z.number().int().describe("Chances."),
  k: z.number().int().describe("Times taken."),
  freq: z.number().nullable().describe("k / n; null without chances."),
});

export const ResultLineSchema = z.object({
  key: z.string(),
  hands: z.number().int(),
  net: z.array(MoneySchema).describe("Net per unit (never added across units)."),
  netBb: z.number(),
  bbPer100: z.number(),
  adjustedBb: z.number().describe("Net with every all-in hand replaced by its expectation at the all-in."),
  adjustedBbPer100: z.number(),
  allInHands: z.number().int(),
  allInLuckBb: z.number().describe("netBb less adjustedBb over the all-in hands: what the run-outs gave."),
  won: z.number().int(),
  showdowns: z.number().int(),
});

export const EquilibriumTotalsSchema = z.object({
  comparableHands: z.number().int(),
  notComparableHands: z.number().int(),
  notComparableReasons: z.array(z.object({ reason: z.string(), hands: z.number().int() })),
  decisions: z.number().int(),
  neverPlayed: z.number().int().describe("Decisions whose action the strategy never takes with that class."),
  rarelyPlayed: z.number().int().describe("Decisions whose action the strategy takes under 10% of the time."),
  meanFreq: z.number().nullable(),
  evLossBb: z.number().describe("EV given up against the best action, bb, over decisions with EVs."),
  evLossBbPerDecision: z.number().nullable(),
  costliest: z.array(
    z.object({
      site: z.string(),
      handId: z.string(),
      game: z.string(),
      stack: z.number(),
      history: z.string(),
      handClass: z.string().nullable(),
      action: z.string(),
      freq: z.number().nullable(),
      bestAction: z.string().nullable(),
      evLossBb: z.number(),
    }),
  ),
});
