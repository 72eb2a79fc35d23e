/** The one reading of a 2026-07-28 `input_required` result, for the endpoint and the gateway alike. */
import { serverQuestionsOf } from "@indus/contract";

it("reads a server's questions and state from an input_required result, and nothing from any other", () => {
  const elicit = { method: "elicitation/create", params: { message: "Name?" } };
  expect(
    serverQuestionsOf({ resultType: "input_required", inputRequests: { name: elicit }, requestState: "s1" }),
  ).toEqual({
    kind: "input-required",
    inputRequests: { name: elicit },
    requestState: "s1",
  });
  // A round may carry only state, or questions with a state that is not text (dropped, not passed on).
  expect(serverQuestionsOf({ resultType: "input_required", requestState: "s2" })).toEqual({
    kind: "input-required",
    inputRequests: {},
    requestState: "s2",
  });
  expect(serverQuestionsOf({ resultType: "input_required", inputRequests: [1], requestState: 7 })).toEqual({
    kind: "input-required",
    inputRequests: {},
  });
  expect(serverQuestionsOf({ content: [] })).toBeUndefined();
  expect(serverQuestionsOf({ resultType: "complete", content: [] })).toBeUndefined();
  expect(serverQuestionsOf(null)).toBeUndefined();
});
