// See typing.ts.
import { it } from "vitest";
import { typingBench } from "./typing";

it("keystroke cost, 5 MB document, 1,000 proposals, 700 threads, 1,000 spans", { timeout: 900_000 }, () => typingBench("As the app is"));
