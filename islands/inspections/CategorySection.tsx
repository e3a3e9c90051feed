// One category of the inspection form (InspectionEditor.tsx): its progress and its items, room by room.
import { memo } from "react";
import type { CategoryWeights } from "../../src/modules/inspections/template-rules";
import { toast } from "../ui/toast";
import { EntryCard } from "./EntryCard";
import { type LocalEntry, type LocalPhoto, type Rooms, categorySlots, hasData, progressOf } from "./model";
import type { FormState, FormStore } from "./store";

const roomWord = (room: string) => room.toLowerCase();

interface SectionProps {
  category: CategoryWeights;
  rooms: Rooms;
  entries: Map<string, LocalEntry>;
  photos: Map<string, LocalPhoto>;
  sending: FormState["sending"];
  open: boolean;
  onToggle: (name: string) => void;
  store: FormStore;
  readOnly: boolean;
}

/** One collapsible category with its progress (completed over total, rounded %), room by room. */
export const CategorySection = memo(function CategorySection({
  category,
  rooms,
  entries,
  photos,
  sending,
  open,
  onToggle,
  store,
  readOnly,
}: SectionProps) {
  const byRoom = categorySlots(category, rooms);
  const progress = progressOf(byRoom.flat(), entries);
  const panelId = `category-${category.name.replace(/[^A-Za-z0-9]+/g, "-").toLowerCase()}`;
  const room = category.repeatable;
  const count = byRoom.length;
  const lastRoomEmpty =
    count > 1 && byRoom[count - 1]!.every((s) => !hasData(entries.get(s.key)) && !entries.get(s.key)?.onServer);

  const addRoom = () => {
    if (!room) return;
    const n = count + 1;
    store.setRooms({ ...rooms, [room]: n });
    toast({ title: `${room} ${n} added`, description: `Its items are named '… (${room} ${n})'.` });
  };
  const removeRoom = () => {
    if (!room) return;
    store.setRooms({ ...rooms, [room]: count - 1 });
    toast({ title: `${room} ${count} removed` });
  };

  return (
    <section className="category" data-category={category.name} aria-labelledby={`${panelId}-title`}>
      <div className="category-head">
        <h3 id={`${panelId}-title`} className="category-heading">
          <button
            type="button"
            className="category-toggle"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => onToggle(category.name)}
          >
            <span className="category-name">{category.name}</span>
            <span className="category-progress" data-testid="category-progress">
              {progress.completed}/{progress.total} ({progress.percent}%)
            </span>
            <svg viewBox="0 0 24 24" className="chevron" aria-hidden="true">
              <path d="M6 9l6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </h3>
        {/* In the header, not below the last room: no scrolling past every card to add one. */}
        {room && !readOnly && (
          <button
            type="button"
            className="btn btn-outline btn-sm category-add"
            onClick={addRoom}
            data-testid="add-room"
          >
            Add {roomWord(room)}
          </button>
        )}
      </div>
      <div className="progress-track progress-thin" aria-hidden="true">
        <div className="progress-fill" style={{ width: `${progress.percent}%` }} />
      </div>
      <div id={panelId} className="category-body" hidden={!open}>
        {open && (
          <>
            {byRoom.map((slots, i) => (
              <div key={slots[0]?.subcategoryName ?? i} className="room">
                {room && (
                  <h4 className="room-heading">
                    {room} {i + 1}
                  </h4>
                )}
                <div className="entry-grid">
                  {slots.map((slot) => {
                    const entry = entries.get(slot.key);
                    const withPhotos = Boolean(entry?.photos.length);
                    return (
                      <EntryCard
                        key={slot.key}
                        slot={slot}
                        entry={entry}
                        photos={withPhotos ? photos : undefined}
                        sending={sending.has(slot.key)}
                        photosSending={withPhotos ? sending : undefined}
                        store={store}
                        readOnly={readOnly}
                      />
                    );
                  })}
                </div>
              </div>
            ))}
            {room && !readOnly && lastRoomEmpty && (
              <div className="room-actions">
                <button type="button" className="btn btn-outline btn-sm" onClick={removeRoom}>
                  Remove {room} {count}
                </button>
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
});
