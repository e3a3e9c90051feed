/** The parts of an address that go on one line. The spec's US reading (`state`) stands in when there is no province. */
export interface AddressParts {
  address: string;
  city?: string | null;
  province?: string | null;
  state?: string | null;
  postalCode?: string | null;
}

/** Where a property is, on one line: '12 Elm Street, Ottawa, ON K1S 2B4'. */
export function addressLine(p: AddressParts): string {
  const region = [p.province ?? p.state, p.postalCode].filter(Boolean).join(" ");
  return [p.address, p.city, region].filter(Boolean).join(", ");
}
