import type { CardErrors, CardValues } from "./card-checks";
import { Field } from "./fields";

interface PayerFieldsProps {
  values: Pick<CardValues, "name" | "email">;
  errors: CardErrors;
  /** The form's setter: `set(key)` gives the field's onChange. */
  set: (key: keyof CardValues) => (value: string) => void;
  /** The page's words for "Name on card". */
  nameLabel: string;
  /** "Email" on /checkout (the spec's label), "Email for the receipt" where the e-mail is only the receipt's. */
  emailLabel: string;
}

/** Who pays: the name on the card and the e-mail, side by side from the small breakpoint up. */
export function PayerFields({ values, errors, set, nameLabel, emailLabel }: PayerFieldsProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field
        id="pay-name"
        label={nameLabel}
        value={values.name}
        error={errors.name}
        onChange={set("name")}
        autoComplete="cc-name"
        required
      />
      <Field
        id="pay-email"
        label={emailLabel}
        type="email"
        value={values.email}
        error={errors.email}
        onChange={set("email")}
        autoComplete="email"
        required
      />
    </div>
  );
}
