import { useEffect, useRef, useState } from "react";

interface Props {
  title: string;
  photos: { clientId: string; src: string }[];
  start: number;
  canDelete: boolean;
  onDelete: (clientId: string) => void;
  onClose: () => void;
}

/** A full-size look at an entry's photos, one at a time, with delete (a native modal <dialog>). */
export default function PhotoViewer({ title, photos, start, canDelete, onDelete, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [index, setIndex] = useState(start);
  const current = photos[Math.min(index, photos.length - 1)];

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);

  useEffect(() => {
    if (!photos.length) onClose();
  }, [photos.length, onClose]);

  if (!current) return null;
  const at = photos.indexOf(current);
  return (
    <dialog ref={dialog} className="photo-viewer" aria-label={`Photos of ${title}`} onClose={onClose}>
      <div className="photo-viewer-bar">
        <p className="font-semibold">
          {title}: photo {at + 1} of {photos.length}
        </p>
        <button type="button" className="btn btn-outline-light btn-sm" onClick={onClose}>
          Close
        </button>
      </div>
      <img src={current.src} alt={`${title}, ${at + 1} of ${photos.length}`} className="photo-viewer-image" />
      <div className="photo-viewer-bar">
        <button
          type="button"
          className="btn btn-outline-light btn-sm"
          disabled={at === 0}
          onClick={() => setIndex(at - 1)}
        >
          Previous
        </button>
        {canDelete && (
          <button
            type="button"
            className="btn btn-danger btn-sm"
            onClick={() => {
              onDelete(current.clientId);
              setIndex(Math.max(0, at - (at === photos.length - 1 ? 1 : 0)));
            }}
          >
            Delete photo
          </button>
        )}
        <button
          type="button"
          className="btn btn-outline-light btn-sm"
          disabled={at >= photos.length - 1}
          onClick={() => setIndex(at + 1)}
        >
          Next
        </button>
      </div>
    </dialog>
  );
}
