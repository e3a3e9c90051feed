// Haven's languages (docs/decisions.md#64, #65): the catalogue, the formatters and the addresses. The how-to is
// src/i18n/README.md.
export {
  type Translator,
  catalogueKeys,
  islandMessages,
  labelKey,
  translator,
} from "./catalogue.js";
export { type Formatters, formatters, listText, phoneText } from "./format.js";
export { DEFAULT_LOCALE, type Locale, isLocale } from "./locales.js";
export { localePath } from "./routing.js";
