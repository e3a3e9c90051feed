/** Whether two e-mail addresses are the same person's: case and surrounding spaces aside. */
export const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
