/**
 * Onboarding: the four short steps a new member goes through after their first login,
 * before the grid. The account keeps the step they are on (absent: done, or a member from before).
 */

export const ONBOARDING_STEPS = ["name", "picture", "characteristics", "location"] as const;
export type OnboardingStep = typeof ONBOARDING_STEPS[number];

/** Is `x` a step? */
export function isOnboardingStep(x: unknown): x is OnboardingStep {
  return typeof x === "string" && (ONBOARDING_STEPS as readonly string[]).includes(x);
}
