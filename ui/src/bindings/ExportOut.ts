// placeholder until make bindings
import type { ExportFormat } from "./ExportFormat";
export type ExportOut = { document: string, format: ExportFormat, path: string, bytes: number, title: string, proposals: number, threads: number, };
