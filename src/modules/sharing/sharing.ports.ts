// What sharing and quotes need from modules that other engineers own. They are read from the container
// at call time, so this module builds whether or not those services are wired yet.
import type { Container } from "../../container.js";

export interface StoredReport {
  id: number;
  propertyId: number;
  inspectionId: number;
  createdAt: string;
  overallScore: number | null;
  reportData: Record<string, unknown>;
}

export interface ReportsPort {
  get(id: number): Promise<StoredReport>;
  pdf(id: number, format: "full" | "summary"): Promise<Buffer>;
}

export interface PhotosPort {
  load(id: number): Promise<{ mimeType: string; bytes: Buffer } | null>;
}

export function reportsOf(container: Container): ReportsPort {
  const reports = (container as unknown as { reports?: ReportsPort }).reports;
  if (!reports) throw new Error("The reports service is not wired into the container");
  return reports;
}

export function photosOf(container: Container): PhotosPort | null {
  return (container as unknown as { photos?: PhotosPort }).photos ?? null;
}
