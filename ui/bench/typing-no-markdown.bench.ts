// See typing.ts. Every variant here, the app's as well, runs without a Markdown parser.
import { it, vi } from "vitest";
import { typingBench } from "./typing";

vi.mock("@codemirror/lang-markdown", () => ({ markdown: () => [] }));

it("keystroke cost without Markdown parsing, same document and review", { timeout: 900_000 }, () => typingBench("Without Markdown parsing"));
