// placeholder until make bindings
export type ExportFormat = "html" | "pdf" | "critic";
