import type { IslandT } from "../ui/i18n";
import type { CardErrors, CardValues } from "./card-checks";
import { Field } from "./fields";

const formatCard = (value: string) =>
  value
    .replace(/\D/g, "")
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

const formatExpiry = (value: string) => {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
};

interface DemoCardFieldsProps {
  t: IslandT;
  values: CardValues;
  errors: CardErrors;
  /** The form's setter: `set(key, format)` gives the field's onChange. */
  set: (key: keyof CardValues, format?: (v: string) => string) => (value: string) => void;
}

/** Demo mode's own card fields, formatted as typed, and the test cards to use. */
export function DemoCardFields({ t, values, errors, set }: DemoCardFieldsProps) {
  return (
    <>
      <Field
        id="pay-card"
        label={t("checkout.pay.card")}
        value={values.cardNumber}
        error={errors.cardNumber}
        onChange={set("cardNumber", formatCard)}
        autoComplete="cc-number"
        inputMode="numeric"
        placeholder="1234 1234 1234 1234"
        required
      />
      <div className="grid grid-cols-2 items-end gap-4">
        <Field
          id="pay-expiry"
          label={t("checkout.pay.expiry")}
          value={values.expiry}
          error={errors.expiry}
          onChange={set("expiry", formatExpiry)}
          autoComplete="cc-exp"
          inputMode="numeric"
          placeholder={t("checkout.pay.expiryPlaceholder")}
          required
        />
        <Field
          id="pay-cvc"
          label={t("checkout.pay.cvc")}
          value={values.cvc}
          error={errors.cvc}
          onChange={set("cvc", (v) => v.replace(/\D/g, "").slice(0, 4))}
          autoComplete="cc-csc"
          inputMode="numeric"
          placeholder="123"
          required
        />
      </div>
      <p className="rounded-md bg-gold-200/50 p-3 text-sm text-ink/85">{t("checkout.pay.demoNote")}</p>
    </>
  );
}
