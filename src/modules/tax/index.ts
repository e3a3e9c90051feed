// The tax module's interface (README "Interface for other modules"): rates as dated data and the arithmetic.
export { PROVINCES, type Province, TAX_RATES, type TaxKind, type TaxRate } from "./tax.rates.js";
export {
  isProvince,
  proportionalTax,
  provinceOfPostalCode,
  ratesChangeOn,
  ratesOn,
  refundedTax,
  taxDifference,
  type TaxedAmount,
  type TaxLine,
  taxFor,
  taxLabel,
} from "./tax.service.js";
