/** A part of a download's file name made from free text (an address): ASCII words and dashes, 60 characters at most. */
export const safeFileName = (text: string, fallback = "report"): string =>
  text
    .normalize("NFKD")
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .slice(0, 60) || fallback;
