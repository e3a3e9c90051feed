// The report viewer's photos (ReportViewer.island.tsx): an item's thumbnails, and the dialog that shows them large.
import { useEffect, useRef, useState } from "react";

/** The photos the viewer shows: an item's, from the one clicked, under the item's name. */
export interface OpenedPhotos {
  urls: string[];
  index: number;
  label: string;
}

export type OpenPhotos = (urls: string[], index: number, label: string) => void;

const thumb = (url: string) => `${url}/thumbnail`;

export function Photos({ urls, label, onOpen }: { urls: string[]; label: string; onOpen: OpenPhotos }) {
  if (!urls.length) return null;
  return (
    <ul className="viewer-photos">
      {urls.map((url, i) => (
        <li key={url}>
          <button
            type="button"
            className="viewer-photo"
            onClick={() => onOpen(urls, i, label)}
            aria-label={`Open photo ${i + 1} of ${urls.length}: ${label}`}
          >
            <img src={thumb(url)} alt="" loading="lazy" width={96} height={72} />
          </button>
        </li>
      ))}
    </ul>
  );
}

export function PhotoViewer({ photos, onClose }: { photos: OpenedPhotos | null; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (photos) {
      setIndex(photos.index);
      if (!dialog.current?.open) dialog.current?.showModal();
    } else dialog.current?.close();
  }, [photos]);
  const urls = photos?.urls ?? [];
  return (
    <dialog
      ref={dialog}
      className="photo-viewer"
      aria-label={photos ? `Photos: ${photos.label}` : "Photos"}
      onClose={onClose}
    >
      {photos && (
        <div className="photo-viewer-body">
          <div className="photo-viewer-head">
            <p className="font-semibold">
              {photos.label} · {index + 1} of {urls.length}
            </p>
            <button type="button" className="btn btn-outline btn-sm" onClick={onClose}>
              Close
            </button>
          </div>
          <img src={urls[index]} alt={`${photos.label}, ${index + 1} of ${urls.length}`} />
          {urls.length > 1 && (
            <div className="photo-viewer-nav">
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => setIndex((index - 1 + urls.length) % urls.length)}
              >
                Previous photo
              </button>
              <button
                type="button"
                className="btn btn-outline btn-sm"
                onClick={() => setIndex((index + 1) % urls.length)}
              >
                Next photo
              </button>
            </div>
          )}
        </div>
      )}
    </dialog>
  );
}
