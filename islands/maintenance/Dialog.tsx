import { type ReactNode, useEffect, useId, useRef } from "react";

/** A native modal <dialog>: focus is trapped and Escape closes it; closing returns focus to the opener. */
export function Dialog({
  title,
  onClose,
  children,
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
      // The opener may be gone (a day dialog closed for a task's); then the grid's cell takes focus.
      if (opener?.isConnected) opener.focus();
      else document.querySelector<HTMLElement>('.mc-cell[tabindex="0"]')?.focus();
    };
  }, []);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click is on the backdrop; the keyboard closes the dialog with Escape (onCancel).
    <dialog
      ref={ref}
      className={`mc-dialog${wide ? " mc-dialog-wide" : ""}`}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        if (e.target === ref.current) onClose();
      }}
    >
      <div className="mc-dialog-head">
        <h2 id={titleId} className="font-serif text-xl font-bold text-green-900">
          {title}
        </h2>
        <button type="button" className="btn btn-outline btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="mc-dialog-body">{children}</div>
    </dialog>
  );
}

/** A definition list of label → value rows; empty values are left out. */
export function Details({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="mc-details">
      {rows
        .filter(([, value]) => value !== null && value !== undefined && value !== "")
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}
