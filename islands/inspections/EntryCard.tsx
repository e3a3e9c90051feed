import { type ChangeEvent, memo, useId, useState } from "react";
import { type EntryScore, SCORE_CHOICES } from "../../src/modules/inspections/template-rules";
import { lazyPart, useLazy } from "../ui/lazy";
import { toast } from "../ui/toast";
import { type LocalEntry, type LocalPhoto, type Slot, isDirty, toSend } from "./model";
import type { FormStore } from "./store";

// The viewer is not needed at first paint: its own chunk (docs/decisions.md#79), fetched when a photo is opened.
const photoViewer = lazyPart(() => import("./PhotoViewer").then((module) => module.default));

export type PlaceStatus = "device" | "sending" | "saved" | "refused";
export const PLACE_LABELS: Record<PlaceStatus, string> = {
  device: "On this device",
  sending: "Sending…",
  saved: "Saved",
  refused: "Not accepted",
};

const objectUrls = new Map<string, string>();
/** The image to show: this device's copy when it has one (works offline), else the server's. */
export function photoSource(photo: LocalPhoto | undefined, size: "thumbnail" | "full"): string {
  if (!photo) return "";
  if (photo.blob) {
    let url = objectUrls.get(photo.clientId);
    if (!url) {
      url = URL.createObjectURL(photo.blob);
      objectUrls.set(photo.clientId, url);
    }
    return url;
  }
  return size === "thumbnail" ? `/api/photos/${photo.serverId}/thumbnail` : `/api/photos/${photo.serverId}`;
}

export const photoStatus = (photo: LocalPhoto | undefined, sending: boolean): PlaceStatus =>
  photo?.error ? "refused" : photo?.serverId !== undefined ? "saved" : sending ? "sending" : "device";

export function entryStatus(entry: LocalEntry | undefined, sending: boolean): PlaceStatus | null {
  if (!entry) return null;
  if (entry.error) return "refused";
  if (sending) return "sending";
  if (isDirty(entry)) return toSend(entry) ? "device" : null;
  return entry.onServer ? "saved" : null;
}

/**
 * After a score, the next card of the same section that still has none (less thumb travel):
 * read from the page, after React has rendered the new score. Stays put when the section is done.
 */
function moveToNextUnscored(from: HTMLElement) {
  requestAnimationFrame(() => {
    const card = from.closest(".entry-card");
    const section = card?.closest(".category-body");
    if (!card || !section) return;
    const cards = Array.from(section.querySelectorAll<HTMLElement>(".entry-card"));
    const next = cards
      .slice(cards.indexOf(card as HTMLElement) + 1)
      .find((c) => c.querySelector(".score-btn") && !c.querySelector('.score-btn[aria-pressed="true"]'));
    if (!next) return;
    next.scrollIntoView({ block: "center", behavior: "smooth" });
    next.querySelector<HTMLButtonElement>(".score-btn")?.focus({ preventScroll: true });
  });
}

export const cardId = (key: string) => `entry-${key.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`;

/** The score buttons; a new score moves on to the section's next unscored card. */
function ScoreButtons({
  name,
  score,
  readOnly,
  onScore,
}: {
  name: string;
  score: EntryScore | null | undefined;
  readOnly: boolean;
  onScore: (score: EntryScore | null) => void;
}) {
  return (
    <fieldset className="score-grid">
      <legend className="sr-only">Score for {name}</legend>
      {SCORE_CHOICES.map((choice) => {
        const pressed = score === choice.value;
        return (
          <button
            key={String(choice.value)}
            type="button"
            className={`score-btn score-${choice.value ?? "na"}`}
            aria-pressed={pressed}
            disabled={readOnly}
            onClick={(event) => {
              if (pressed) return;
              onScore(choice.value);
              moveToNextUnscored(event.currentTarget);
            }}
          >
            {choice.value !== null && <span className="score-num">{choice.value}</span>} <span>{choice.label}</span>
          </button>
        );
      })}
    </fieldset>
  );
}

interface PhotoStripProps {
  name: string;
  photos: LocalPhoto[];
  /** The photos being sent now, by client id. */
  sending: Set<string> | undefined;
  onOpen: (index: number) => void;
}

/** The card's photos as thumbnails, each with where it is (this device, sending, saved). */
function PhotoStrip({ name, photos, sending, onOpen }: PhotoStripProps) {
  return (
    <ul className="photo-strip" aria-label={`Photos of ${name}`}>
      {photos.map((photo, i) => {
        const place = photoStatus(photo, sending?.has(photo.clientId) ?? false);
        return (
          <li key={photo.clientId} data-photo-status={place}>
            <button
              type="button"
              className="photo-thumb"
              onClick={() => onOpen(i)}
              aria-label={`Open photo ${i + 1} of ${name} (${PLACE_LABELS[place]})`}
            >
              <img
                src={photoSource(photo, "thumbnail")}
                alt=""
                loading="lazy"
                decoding="async"
                width={88}
                height={88}
              />
            </button>
            <span className={`place place-${place} place-sm`} aria-hidden="true">
              {PLACE_LABELS[place]}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

interface CardProps {
  slot: Slot;
  entry: LocalEntry | undefined;
  /** The photos map, only for cards that show photos (keeps other cards from re-rendering). */
  photos: Map<string, LocalPhoto> | undefined;
  sending: boolean;
  photosSending: Set<string> | undefined;
  store: FormStore;
  readOnly: boolean;
}

/** One subcategory (or one room's subcategory): score buttons, notes, photos, urgent (staff-side §2). */
export const EntryCard = memo(function EntryCard({
  slot,
  entry,
  photos,
  sending,
  photosSending,
  store,
  readOnly,
}: CardProps) {
  const id = useId();
  const [viewing, setViewing] = useState<number | null>(null);
  const PhotoViewer = useLazy(photoViewer, viewing !== null);
  const [reading, setReading] = useState(false);
  const name = slot.room > 1 ? slot.subcategoryName : slot.label;
  const update = (change: Parameters<FormStore["updateEntry"]>[2]) =>
    store.updateEntry(slot.categoryName, slot.subcategoryName, change);
  const status = entryStatus(entry, sending);
  const entryPhotos = (entry?.photos ?? [])
    .map((clientId) => photos?.get(clientId))
    .filter((p): p is LocalPhoto => Boolean(p));

  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = "";
    if (!files.length) return;
    setReading(true);
    try {
      // The photo pipeline loads on first use (the JS budget); the service worker keeps it for offline use.
      const { readPhotos } = await import("./shrink");
      const { photos: added, skipped } = await readPhotos(files, store.state.inspection.id);
      if (added.length) store.addPhotos(slot.categoryName, slot.subcategoryName, added);
      const description = [
        `${added.length} photo${added.length === 1 ? "" : "s"} added to ${name}`,
        skipped ? `${skipped} file${skipped === 1 ? " was" : "s were"} not an image and skipped` : "",
      ]
        .filter(Boolean)
        .join("; ");
      toast({ title: "Photos uploaded", description: `${description}.` });
    } finally {
      setReading(false);
    }
  };

  return (
    <article
      className="entry-card"
      id={cardId(slot.key)}
      data-entry={slot.key}
      data-status={status ?? "empty"}
      aria-labelledby={`${id}-title`}
    >
      <div className="entry-head">
        <h4 id={`${id}-title`} className="entry-title">
          {name}
        </h4>
        {status && (
          <span className={`place place-${status}`} data-testid="entry-status">
            {PLACE_LABELS[status]}
          </span>
        )}
      </div>
      {entry?.error && (
        <p className="field-error" role="alert">
          {entry.error}
        </p>
      )}
      {slot.descriptionOnly ? (
        <p className="text-sm text-ink/75">Description only: this item takes no score.</p>
      ) : (
        <ScoreButtons name={name} score={entry?.score} readOnly={readOnly} onScore={(score) => update({ score })} />
      )}
      <div className="field">
        <label htmlFor={`${id}-notes`}>{slot.descriptionOnly ? "Description" : "Notes"}</label>
        <textarea
          id={`${id}-notes`}
          rows={2}
          value={entry?.notes ?? ""}
          readOnly={readOnly}
          onChange={(e) => update({ notes: e.target.value })}
        />
      </div>
      {entryPhotos.length > 0 && (
        <PhotoStrip name={name} photos={entryPhotos} sending={photosSending} onOpen={setViewing} />
      )}
      <div className="entry-actions">
        {!readOnly && (
          <>
            <label className="btn btn-outline btn-sm file-btn">
              {reading ? "Reading…" : "Add photos"}
              <input
                type="file"
                accept="image/*"
                multiple
                className="sr-only"
                onChange={onFiles}
                aria-label={`Add photos to ${name}`}
              />
            </label>
            <label className="btn btn-outline btn-sm file-btn">
              Take photo
              <input
                type="file"
                accept="image/*"
                capture="environment"
                className="sr-only"
                onChange={onFiles}
                aria-label={`Take a photo of ${name}`}
              />
            </label>
          </>
        )}
        <label className="urgent-toggle">
          <input
            type="checkbox"
            checked={entry?.urgent ?? false}
            disabled={readOnly}
            onChange={(e) => update({ urgent: e.target.checked })}
          />
          Mark as urgent
        </label>
      </div>
      {viewing !== null && entryPhotos.length > 0 && PhotoViewer && (
        <PhotoViewer
          title={name}
          photos={entryPhotos.map((p) => ({ clientId: p.clientId, src: photoSource(p, "full") }))}
          start={Math.min(viewing, entryPhotos.length - 1)}
          canDelete={!readOnly}
          onDelete={(clientId) => entry && store.removePhoto(entry, clientId)}
          onClose={() => setViewing(null)}
        />
      )}
    </article>
  );
});
