// The shared test servers live in @indus/testkit; endpoint's tests keep importing them from here.
export { FIXTURES, everythingStdio, fixture, npmServerEntry, scripted, tiny } from "@indus/testkit";
